import { testDialects } from '@brand/persistence-kysely/testing';
import { ProductionBrand, seedProductionBrand } from './support/production';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;
const pointers = (body: { errors: { source?: { pointer?: string } }[] }) => body.errors.map((e) => e.source?.pointer);

for (const dialect of testDialects()) {
  describe(`v10 production orders [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let p: ProductionBrand;

    beforeEach(async () => {
      p = await seedProductionBrand(t);
    });

    it('creates a numbered draft with catalog copies, shown again by GET with its timeline', async () => {
      const response = await p.post('/v10/production-orders', {
        supplier_number: 'SUP-1',
        expected_delivery: '2026-09-01',
        notes: 'rush',
        production_order_meta: { season: 'FW26' },
        lines: [
          { sku: 'TEE-S', quantity: 20, unit_cost: 4.5 },
          { ean: '5700000000035', quantity: 10 },
        ],
      });
      expect(response.status).toBe(201);
      const order = response.body.production_order as Body;
      expect(order).toMatchObject({
        production_order_number: 1,
        status: 'draft',
        supplier_number: 'SUP-1',
        currency: 'EUR',
        expected_delivery: '2026-09-01',
        notes: 'rush',
        production_order_meta: { season: 'FW26' },
        sales_order_ids: [],
        approved_at: null,
        exports: [],
      });
      expect(order['lines']).toEqual([
        expect.objectContaining({
          sku: 'TEE-S',
          quantity: 20,
          unit_cost: 4.5,
          expected_quantity: 0,
          received_quantity: 0,
          product_name: 'T-shirt',
        }),
        expect.objectContaining({
          sku: 'CAP-ONE',
          quantity: 10,
          unit_cost: null,
          country_of_origin: 'PT',
          hs_tariff_code: '650500',
        }),
      ]);
      const read = await p.get(`/v10/production-orders/${order['id']}`);
      expect(read.status).toBe(200);
      expect(read.body.production_order).toEqual(order);
      expect((order['timeline'] as Body[]).map((e) => e['kind'])).toEqual(['created']);
    });

    it('refuses bad input with 422 naming each field, and writes nothing', async () => {
      const bad = await p.post('/v10/production-orders', {
        supplier_number: 'SUP-OFF',
        sales_order_ids: [999999],
        lines: [
          { sku: 'NOPE', quantity: 1 },
          { sku: 'TEE-S', quantity: 2 },
        ],
      });
      expect(bad.status).toBe(422);
      expect(pointers(bad.body).sort()).toEqual(['/lines/0/sku', '/sales_order_ids/0', '/supplier_number']);

      const shapes = await p.post('/v10/production-orders', {
        supplier_number: 'SUP-1',
        expected_delivery: '2026-02-30',
        lines: [{ sku: 'TEE-S', quantity: 0, unit_cost: 1.234 }],
      });
      expect(shapes.status).toBe(422);
      expect(pointers(shapes.body).sort()).toEqual(['/lines/0/quantity', '/lines/0/unit_cost']);
      const impossibleDate = await p.post('/v10/production-orders', {
        supplier_number: 'SUP-1',
        expected_delivery: '2026-02-30',
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });
      expect(impossibleDate.status).toBe(422);
      expect(pointers(impossibleDate.body)).toEqual(['/expected_delivery']);

      expect((await p.post('/v10/production-orders', {})).status).toBe(422);
      // Back-office bodies are flat (DESIGN §6): the wrapped form of earlier versions lacks the fields it wraps.
      const wrapped = await p.post('/v10/production-orders', {
        production_order: { supplier_number: 'SUP-1', lines: [{ sku: 'TEE-S', quantity: 1 }] },
      });
      expect(wrapped.status).toBe(422);
      expect(pointers(wrapped.body).sort()).toEqual(['/lines', '/supplier_number']);
      const list = await p.get('/v10/production-orders');
      expect(list.body).toMatchObject({ production_orders: [], total: 0 });
    });

    it('approves draft → open and closes open → closed; other moves are 422 invalid_state_transition', async () => {
      const order = await p.createOrder();
      t.clock.advance(MINUTE);
      const approved = await p.post(`/v10/production-orders/${order['id']}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.production_order).toMatchObject({ status: 'open', approved_at: t.clock.now() });
      const again = await p.post(`/v10/production-orders/${order['id']}/approve`);
      expect(again.status).toBe(422);
      expect(again.body.errors[0].code).toBe('invalid_state_transition');
      const closed = await p.post(`/v10/production-orders/${order['id']}/close`);
      expect(closed.status).toBe(200);
      expect((await p.get(`/v10/production-orders/${order['id']}`)).body.production_order).toMatchObject({
        status: 'closed',
        closed_at: t.clock.now(),
      });
      expect((await p.post('/v10/production-orders/999999/close')).status).toBe(404);
    });

    it('announces delivery notes on an open order only, for its lines only, raising expected pieces', async () => {
      const draft = await p.createOrder();
      const early = await p.post(`/v10/production-orders/${draft['id']}/delivery-notes`, {
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });
      expect(early.status).toBe(422);
      expect(early.body.errors[0].code).toBe('invalid_state_transition');

      const order = await p.openOrder();
      const notOnOrder = await p.post(`/v10/production-orders/${order['id']}/delivery-notes`, {
        lines: [{ sku: 'SOCK-42', quantity: 1 }],
      });
      expect(notOnOrder.status).toBe(422);
      expect(pointers(notOnOrder.body)).toEqual(['/lines/0/sku']);

      const note = await p.announce(order['id'], [{ sku: 'TEE-S', quantity: 12 }], { meta: { truck: 'T1' } });
      expect(note).toMatchObject({
        production_order_delivery_note_number: 1,
        production_order_id: order['id'],
        status: 'expected',
        meta: { truck: 'T1' },
        lines: [expect.objectContaining({ sku: 'TEE-S', expected_quantity: 12, received_quantity: 0 })],
      });
      const read = (await p.get(`/v10/production-orders/${order['id']}?includes[]=deliveryNotes&includes[]=supplier`))
        .body.production_order as Body;
      expect((read['lines'] as Body[]).map((l) => l['expected_quantity'])).toEqual([12, 0]);
      expect((read['delivery_notes'] as Body[]).map((n) => n['id'])).toEqual([note['id']]);
      expect(read['supplier']).toMatchObject({ supplier_number: 'SUP-1', name: 'Porto Mills' });
      const notes = await p.get(
        `/v10/production-order-delivery-notes?filter_groups[0][filters][0][key]=production_order_id&filter_groups[0][filters][0][value]=${order['id']}`,
      );
      expect(notes.status).toBe(200);
      expect(notes.body).toMatchObject({
        total: 1,
        production_order_delivery_notes: [{ id: note['id'], production_order_delivery_note_number: 1 }],
      });
      // Filtered by the number under the name the warehouse receives it by (issue 34).
      const byNumber = await p.get(
        '/v10/production-order-delivery-notes?filter_groups[0][filters][0][key]=production_order_delivery_note_number&filter_groups[0][filters][0][value]=1',
      );
      expect(byNumber.body.production_order_delivery_notes).toEqual([
        expect.objectContaining({ id: note['id'], production_order_delivery_note_number: 1 }),
      ]);
    });

    it('keeps a supplier that production orders refer to from being deleted', async () => {
      await p.createOrder();
      const response = await p.post('/production/suppliers/sync', {
        suppliers: [{ supplier_number: 'SUP-1', delete: true }],
      });
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({
        source: { pointer: '/suppliers/0/delete' },
        detail: expect.stringContaining('it still has production orders'),
      });
      const list = await p.get('/v10/production-orders?includes[]=supplier');
      expect(list.body.production_orders[0].supplier).toMatchObject({ supplier_number: 'SUP-1' });
    });

    it('lists production orders with filters and includes', async () => {
      const draft = await p.createOrder();
      const open = await p.openOrder();
      const byStatus = await p.get(
        '/v10/production-orders?filter_groups[0][filters][0][key]=status&filter_groups[0][filters][0][value]=open',
      );
      expect(byStatus.status).toBe(200);
      expect(byStatus.body).toMatchObject({
        total: 1,
        has_more: false,
        production_orders: [{ id: open['id'], status: 'open' }],
      });
      expect(byStatus.body.production_orders[0].lines).toBeUndefined();
      const withLines = await p.get(
        '/v10/production-orders?includes[]=lines&sort[0][key]=updated_at&sort[0][direction]=DESC',
      );
      expect(withLines.body.production_orders.map((o: Body) => o['id'])).toEqual([open['id'], draft['id']]);
      expect(withLines.body.production_orders[0].lines).toHaveLength(2);
      const badInclude = await p.get('/v10/production-orders/1?includes[]=nope');
      expect(badInclude.status).toBe(422);
    });
  });
}
