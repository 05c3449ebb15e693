import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { placeOrder } from './support/orders';
import { ProductionBrand, seedProductionBrand } from './support/production';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;
const ids = (body: { production_orders: Body[] }) => body.production_orders.map((o) => o['id']);

const ROUTES: [method: string, path: string, scope: string, status: string][] = [
  ['get', '/v10/production-orders/export', 'production:read', '200'],
  ['post', '/v10/production-orders/mark-as-exported', 'production:write', '200'],
  ['get', '/v10/production-orders', 'production:read', '200'],
  ['post', '/v10/production-orders', 'production:write', '201'],
  ['get', '/v10/production-orders/{id}', 'production:read', '200'],
  ['post', '/v10/production-orders/{id}/approve', 'production:write', '200'],
  ['post', '/v10/production-orders/{id}/close', 'production:write', '200'],
  ['post', '/v10/production-orders/{id}/delivery-notes', 'production:write', '201'],
  ['get', '/v10/production-order-delivery-notes', 'production:read', '200'],
  ['get', '/3pl/production/orders/delivery-notes', 'production:read', '200'],
  ['post', '/3pl/production/receive', 'production:write', '200'],
];

for (const dialect of testDialects()) {
  describe(`production order export and OpenAPI [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let p: ProductionBrand;

    beforeEach(async () => {
      p = await seedProductionBrand(t);
    });

    const exportOf = async (query = '') => {
      const response = await p.get(`/v10/production-orders/export?system_id=erp${query}`);
      if (response.status !== 200)
        throw new Error(`export answered ${response.status}: ${JSON.stringify(response.body)}`);
      return response.body as { production_orders: Body[]; has_more: boolean; total?: number };
    };

    it('exports open orders by default, drafts with include_open and closed with include_closed, until marked', async () => {
      const draft = await p.createOrder();
      const open = await p.openOrder();
      const closed = await p.openOrder();
      await p.post(`/v10/production-orders/${closed['id']}/close`);
      const defaults = await exportOf();
      expect(ids(defaults)).toEqual([open['id']]);
      expect(defaults.total).toBeUndefined();
      expect(ids(await exportOf('&include_open=1&include_closed=1'))).toEqual([draft['id'], open['id'], closed['id']]);
      expect((await p.get('/v10/production-orders/export?system_id=erp&include_open=yes')).status).toBe(422);
      expect((await p.get('/v10/production-orders/export')).status).toBe(422);

      t.clock.advance(MINUTE);
      const marked = await p.post('/v10/production-orders/mark-as-exported', {
        production_orders: [{ production_order_id: open['id'], system_id: 'erp', note: 'imported' }],
      });
      expect(marked.status).toBe(200);
      expect(marked.body.production_orders[0]).toMatchObject({
        id: open['id'],
        exports: [{ system_id: 'erp', exported_at: t.clock.now(), note: 'imported' }],
      });
      expect(ids(await exportOf())).toEqual([]);
      const otherSystem = await p.get('/v10/production-orders/export?system_id=wms');
      expect(ids(otherSystem.body)).toEqual([open['id']]);
      const read = (await p.get(`/v10/production-orders/${open['id']}`)).body.production_order as Body;
      expect((read['timeline'] as Body[]).map((e) => e['kind'])).toContain('exported');

      const unknown = await p.post('/v10/production-orders/mark-as-exported', {
        production_orders: [{ production_order_id: 999999, system_id: 'erp' }],
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source.pointer).toBe('/production_orders/0/production_order_id');
      const tooMany = await p.post('/v10/production-orders/mark-as-exported', {
        production_orders: Array.from({ length: 11 }, () => ({ production_order_id: open['id'], system_id: 'erp' })),
      });
      expect(tooMany.status).toBe(422);
    });

    it('includes lines with catalog, delivery notes, supplier and sales orders with delivery, lines and shop', async () => {
      const sales = await placeOrder(t, p.brand, p.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-S', quantity: 2 }],
      });
      const order = await p.openOrder({ sales_order_ids: [sales['id']] });
      const note = await p.announce(order['id']);
      const includes = [
        'deliveryNotes',
        'lines',
        'lines.product',
        'lines.variant',
        'salesOrders',
        'salesOrders.delivery',
        'salesOrders.lines',
        'salesOrders.lines.product',
        'salesOrders.lines.variant',
        'salesOrders.shop',
        'supplier',
      ];
      const body = await exportOf(includes.map((i) => `&includes[]=${i}`).join(''));
      const [exported] = body.production_orders;
      expect(exported).toMatchObject({
        id: order['id'],
        sales_order_ids: [sales['id']],
        supplier: { supplier_number: 'SUP-1' },
        delivery_notes: [{ id: note['id'], status: 'expected' }],
        lines: [
          expect.objectContaining({
            sku: 'TEE-S',
            product: expect.objectContaining({ item_number: 'TEE' }),
            variant: expect.objectContaining({ sku: 'TEE-S' }),
          }),
          expect.objectContaining({ sku: 'CAP-ONE', product: expect.objectContaining({ item_number: 'CAP' }) }),
        ],
        sales_orders: [
          {
            id: sales['id'],
            order_number: sales['order_number'],
            delivery: expect.objectContaining({ city: expect.any(String) }),
            shop: expect.objectContaining({ public_id: p.channels.b2b }),
            lines: [
              expect.objectContaining({
                sku: 'TEE-S',
                quantity: 2,
                product: expect.objectContaining({ name: 'T-shirt' }),
                variant: expect.objectContaining({ ean: '5700000000011' }),
              }),
            ],
          },
        ],
      });
      const plain = (await exportOf()).production_orders[0]!;
      expect(plain['lines']).toBeUndefined();
      expect(plain['sales_orders']).toBeUndefined();

      const foreignOrder = await p.post('/v10/production-orders', {
        supplier_number: 'SUP-1',
        sales_order_ids: [(sales['id'] as number) + 1000],
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });
      expect(foreignOrder.status).toBe(422);
      expect(foreignOrder.body.errors[0].source.pointer).toBe('/sales_order_ids/0');
    });

    it('documents every production route with its scope and a response schema', async () => {
      const doc = (await request(t.server).get('/openapi.json')).body as {
        paths: Record<string, Record<string, { security: unknown; responses: Record<string, { content?: unknown }> }>>;
      };
      for (const [method, path, scope, status] of ROUTES) {
        const operation = doc.paths[path]?.[method];
        expect({ route: `${method} ${path}`, documented: operation !== undefined }).toEqual({
          route: `${method} ${path}`,
          documented: true,
        });
        expect(operation!.security).toEqual([
          { bearer: [scope], app_key: [] },
          { access_token: [scope], app_key: [] },
        ]);
        expect(operation!.responses[status]!.content).toBeDefined();
      }
    });
  });
}
