import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { createIntegrator } from './support/integrator';
import {
  OrderingBrand,
  approveOrder,
  deliverThroughCore,
  getOk,
  listOrders,
  placeOrder,
  seedOrderingBrand,
  stockOf,
} from './support/orders';
import { useTestApp } from './support/test-app';

const MINUTE = 60_000;
const filter = (key: string, value: string, operator = 'eq') =>
  `filter_groups[0][filters][0][key]=${key}&filter_groups[0][filters][0][operator]=${operator}&filter_groups[0][filters][0][value]=${encodeURIComponent(value)}`;

for (const dialect of testDialects()) {
  describe(`order lifecycle and shipments [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const b2bOrder = (lines: { sku: string; quantity: number }[], extra: Record<string, unknown> = {}) =>
      placeOrder(t, shop.brand, shop.channels.b2b, { customer_number: 'C-B2B', lines, ...extra });
    const post = (path: string, body?: Record<string, unknown>) => {
      const call = request(t.server).post(path).set(shop.brand.headers);
      return body === undefined ? call : call.send(body);
    };

    it('approves an order and creates one shipment of all its pieces, carrying the shipping cost', async () => {
      const order = await b2bOrder(
        [
          { sku: 'TEE-S', quantity: 3 },
          { sku: 'CAP-ONE', quantity: 1 },
        ],
        { shipping_cost: 7.5 },
      );
      t.clock.advance(MINUTE);
      const approved = await post(`/v10/orders/${order['id']}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.order).toMatchObject({
        status: 'approved',
        approved_at: t.clock.now(),
        updated_at: t.clock.now(),
        exports: [],
      });
      expect(
        approved.body.order.lines.map((l: Record<string, unknown>) => [
          l['sku'],
          l['shipped_quantity'],
          l['reserved_quantity'],
        ]),
      ).toEqual([
        ['TEE-S', 3, 3],
        ['CAP-ONE', 1, 1],
      ]);
      expect(approved.body.order.timeline.map((e: Record<string, unknown>) => e['kind'])).toEqual([
        'created',
        'approved',
        'shipment_created',
      ]);

      const shipments = await getOk(t, shop.brand, '/v10/shipments?includes[]=lines');
      expect(shipments['total']).toBe(1);
      const [shipment] = shipments['shipments'] as Record<string, unknown>[];
      expect(shipment).toEqual({
        id: expect.any(Number),
        shipment_number: expect.any(Number),
        order_id: order['id'],
        order_number: order['order_number'],
        customer_id: shop.customers['C-B2B']!.id,
        status: 'open',
        shipping_cost: 7.5,
        carrier: null,
        colli: [],
        delivered_at: null,
        cancelled_at: null,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
        exports: [],
        lines: [
          {
            id: expect.any(Number),
            order_line_id: (order['lines'] as { id: number }[])[0]!.id,
            variant_id: shop.variantIds['TEE-S'],
            sku: 'TEE-S',
            ean: '5700000000011',
            quantity: 3,
            delivered_quantity: 0,
          },
          {
            id: expect.any(Number),
            order_line_id: (order['lines'] as { id: number }[])[1]!.id,
            variant_id: shop.variantIds['CAP-ONE'],
            sku: 'CAP-ONE',
            ean: '5700000000035',
            quantity: 1,
            delivered_quantity: 0,
          },
        ],
      });
      const single = await getOk(t, shop.brand, `/v10/shipments/${shipment!['id']}`);
      expect(single['shipment']).toEqual({
        ...shipment,
        timeline: [expect.objectContaining({ kind: 'created', user_id: shop.brand.userId })],
      });
      const withShipments = await getOk(
        t,
        shop.brand,
        `/v10/orders/${order['id']}?includes[]=shipments&includes[]=invoices`,
      );
      expect(withShipments['order']).toMatchObject({
        shipments: [{ id: shipment!['id'], lines: shipment!['lines'] }],
        invoices: [],
      });
      // Approving does not touch stock: the pieces stay reserved until regulated or released.
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 7 });
    });

    it('refuses to approve an order twice', async () => {
      const order = await b2bOrder([{ sku: 'TEE-S', quantity: 1 }]);
      await approveOrder(t, shop.brand, order['id'] as number);
      const again = await post(`/v10/orders/${order['id']}/approve`);
      expect(again.status).toBe(422);
      expect(again.body.errors[0]).toMatchObject({
        code: 'invalid_state_transition',
        detail: 'order cannot move from approved to approved',
      });
      expect((await getOk(t, shop.brand, '/v10/shipments'))['total']).toBe(1);
    });

    it('approves on creation on an auto-approve channel, with its shipment', async () => {
      const channel = await post('/v10/order-channels', { name: 'Marketplace', order_type: 'b2c', auto_approve: true });
      expect(channel.status).toBe(201);
      const order = await placeOrder(t, shop.brand, channel.body.order_channel.public_id, {
        customer_number: 'C-SHOP',
        lines: [{ sku: 'TEE-M', quantity: 2 }],
      });
      expect(order).toMatchObject({
        status: 'approved',
        approved_at: t.clock.now(),
        order_channel_id: channel.body.order_channel.id,
      });
      const shipments = await getOk(
        t,
        shop.brand,
        `/v10/shipments?includes[]=lines&${filter('order_id', String(order['id']))}`,
      );
      expect(shipments['shipments']).toEqual([
        expect.objectContaining({ status: 'open', lines: [expect.objectContaining({ sku: 'TEE-M', quantity: 2 })] }),
      ]);
    });

    it('ships an approved order in parts, never beyond its open pieces', async () => {
      const order = await b2bOrder(
        [
          { sku: 'TEE-S', quantity: 4 },
          { sku: 'TEE-M', quantity: 2 },
        ],
        { shipping_cost: 5 },
      );
      const approved = await post(`/v10/orders/${order['id']}/approve`, { create_shipment: false });
      expect(approved.status).toBe(200);
      expect(approved.body.order.status).toBe('approved');
      expect((await getOk(t, shop.brand, '/v10/shipments'))['total']).toBe(0);

      const first = await post(`/v10/orders/${order['id']}/shipments`, {
        lines: [
          { sku: 'TEE-S', quantity: 1 },
          { ean: '5700000000028', quantity: 2 },
        ],
      });
      expect(first.status).toBe(201);
      expect(first.body.shipment).toMatchObject({
        status: 'open',
        shipping_cost: 5,
        exports: [],
        lines: [
          expect.objectContaining({ sku: 'TEE-S', quantity: 1 }),
          expect.objectContaining({ sku: 'TEE-M', quantity: 2 }),
        ],
      });
      const second = await post(`/v10/orders/${order['id']}/shipments`, { lines: [{ sku: 'TEE-S', quantity: 3 }] });
      expect(second.status).toBe(201);
      expect(second.body.shipment).toMatchObject({
        shipping_cost: null,
        lines: [expect.objectContaining({ sku: 'TEE-S', quantity: 3 })],
      });

      const beyond = await post(`/v10/orders/${order['id']}/shipments`, { lines: [{ sku: 'TEE-S', quantity: 1 }] });
      expect(beyond.status).toBe(422);
      expect(beyond.body.errors[0].source).toEqual({ pointer: '/lines/0/quantity' });
      const notOnOrder = await post(`/v10/orders/${order['id']}/shipments`, {
        lines: [{ sku: 'CAP-ONE', quantity: 1 }],
      });
      expect(notOnOrder.status).toBe(422);
      expect(notOnOrder.body.errors[0].source).toEqual({ pointer: '/lines/0/sku' });
      const shape = await post(`/v10/orders/${order['id']}/shipments`, { lines: [{ quantity: 1 }] });
      expect(shape.status).toBe(422);
      expect(shape.body.errors[0]).toMatchObject({
        source: { pointer: '/lines/0/sku' },
        detail: 'lines[0].sku is required when ean is not sent',
      });

      const after = (await getOk(t, shop.brand, `/v10/orders/${order['id']}`))['order'] as {
        lines: { sku: string; shipped_quantity: number }[];
      };
      expect(after.lines.map((l) => [l.sku, l.shipped_quantity])).toEqual([
        ['TEE-S', 4],
        ['TEE-M', 2],
      ]);
      expect((await getOk(t, shop.brand, `/v10/shipments?${filter('order_id', String(order['id']))}`))['total']).toBe(
        2,
      );
    });

    it('refuses a partial shipment of a draft order', async () => {
      const order = await b2bOrder([{ sku: 'TEE-S', quantity: 1 }]);
      const response = await post(`/v10/orders/${order['id']}/shipments`, { lines: [{ sku: 'TEE-S', quantity: 1 }] });
      expect(response.status).toBe(422);
      expect((await getOk(t, shop.brand, '/v10/shipments'))['total']).toBe(0);
    });

    it('cancels an order: reserved stock comes back and its open shipment is cancelled', async () => {
      const order = await b2bOrder([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'CAP-ONE', quantity: 2 },
      ]);
      await approveOrder(t, shop.brand, order['id'] as number);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 7 });
      t.clock.advance(MINUTE);
      const cancelled = await post(`/v10/orders/${order['id']}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.order).toMatchObject({ status: 'cancelled', cancelled_at: t.clock.now() });
      expect(
        cancelled.body.order.lines.map((l: Record<string, unknown>) => [
          l['sku'],
          l['reserved_quantity'],
          l['shipped_quantity'],
        ]),
      ).toEqual([
        ['TEE-S', 0, 0],
        ['CAP-ONE', 0, 0],
      ]);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 10 });
      expect(await stockOf(t, shop.brand, 'CAP-ONE')).toEqual({ in_stock: 5, available: 5 });
      expect((await getOk(t, shop.brand, '/v10/shipments'))['shipments']).toEqual([
        expect.objectContaining({ status: 'cancelled', cancelled_at: t.clock.now() }),
      ]);

      const again = await post(`/v10/orders/${order['id']}/cancel`);
      expect(again.status).toBe(422);
      expect(again.body.errors[0].code).toBe('invalid_state_transition');
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 10 });
    });

    it('refuses to cancel an order once a shipment of it was delivered', async () => {
      const order = await b2bOrder([{ sku: 'TEE-S', quantity: 2 }]);
      await approveOrder(t, shop.brand, order['id'] as number);
      const shipment = (
        (await getOk(t, shop.brand, '/v10/shipments?includes[]=lines'))['shipments'] as {
          id: number;
          shipment_number: number;
          lines: { sku: string; quantity: number }[];
        }[]
      )[0]!;
      await deliverThroughCore(t, shop.brand, shipment);
      const response = await post(`/v10/orders/${order['id']}/cancel`);
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({
        code: 'invalid_state_transition',
        detail: expect.stringContaining('delivered'),
      });
      expect(
        ((await getOk(t, shop.brand, `/v10/orders/${order['id']}`))['order'] as Record<string, unknown>)['status'],
      ).toBe('approved');
      const delivered = (await getOk(t, shop.brand, `/v10/shipments/${shipment.id}`))['shipment'];
      expect(delivered).toMatchObject({
        status: 'completed',
        carrier: 'gls',
        colli: [
          {
            track_trace: '3STEST0001',
            track_trace_link: 'https://gls-group.eu/track/3STEST0001',
            sscc_number: null,
            lines: [{ sku: 'TEE-S', quantity: 2 }],
          },
        ],
        lines: [expect.objectContaining({ sku: 'TEE-S', quantity: 2, delivered_quantity: 2 })],
      });
    });

    it('answers 404 for an unknown, foreign or non-numeric id and 422 for an unknown include', async () => {
      const order = await b2bOrder([{ sku: 'TEE-S', quantity: 1 }]);
      const other = await seedOrderingBrand(t);
      for (const path of [
        `/v10/orders/${order['id']}`,
        '/v10/orders/999999',
        '/v10/orders/abc',
        '/v10/shipments/999999',
        '/v10/shipments/x',
      ]) {
        const response = await request(t.server).get(path).set(other.brand.headers);
        expect(response.status).toBe(404);
      }
      expect((await request(t.server).post(`/v10/orders/${order['id']}/approve`).set(other.brand.headers)).status).toBe(
        404,
      );
      expect((await request(t.server).post(`/v10/orders/${order['id']}/cancel`).set(other.brand.headers)).status).toBe(
        404,
      );
      const include = await request(t.server)
        .get(`/v10/orders/${order['id']}?includes[]=customer`)
        .set(shop.brand.headers);
      expect(include.status).toBe(422);
      expect(include.body.errors[0]).toMatchObject({
        code: 'invalid_list_query',
        source: { parameter: 'includes[0]', pointer: '/includes/0' },
      });
    });

    describe('order list', () => {
      let orders: Record<string, unknown>[];

      beforeEach(async () => {
        orders = [];
        orders.push(await b2bOrder([{ sku: 'TEE-S', quantity: 1 }]));
        t.clock.advance(MINUTE);
        orders.push(await b2bOrder([{ sku: 'TEE-M', quantity: 1 }]));
        t.clock.advance(MINUTE);
        orders.push(
          await placeOrder(t, shop.brand, shop.channels.b2b, {
            customer_number: 'C-SHOP',
            lines: [{ sku: 'CAP-ONE', quantity: 1 }],
          }),
        );
        t.clock.advance(MINUTE);
        await approveOrder(t, shop.brand, orders[0]!['id'] as number, { create_shipment: false });
      });

      it('walks orders by updated_at DESC with next_cursor, lines only when included', async () => {
        const sort = 'sort[0][key]=updated_at&sort[0][direction]=DESC';
        const first = await listOrders(t, shop.brand, `${sort}&limit=2`);
        expect(first.orders.map((o) => o['id'])).toEqual([orders[0]!['id'], orders[2]!['id']]);
        expect(first).toMatchObject({ has_more: true, total: 3, next_cursor: expect.any(String) });
        expect(first.orders[0]!['lines']).toBeUndefined();
        const second = await listOrders(
          t,
          shop.brand,
          `${sort}&limit=2&cursor=${encodeURIComponent(first.next_cursor!)}&includes[]=lines`,
        );
        expect(second.orders.map((o) => o['id'])).toEqual([orders[1]!['id']]);
        expect(second).toMatchObject({ has_more: false, next_cursor: null });
        expect(second.total).toBeUndefined();
        expect(second.orders[0]!['lines']).toEqual([expect.objectContaining({ sku: 'TEE-M' })]);
      });

      it('refuses an unsupported sort key and starting_after with a custom sort', async () => {
        const badSort = await request(t.server).get('/v10/orders?sort[0][key]=total').set(shop.brand.headers);
        expect(badSort.status).toBe(422);
        expect(badSort.body.errors[0]).toMatchObject({
          code: 'invalid_list_query',
          source: expect.objectContaining({ parameter: 'sort[0][key]' }),
        });
        const startingAfter = await request(t.server)
          .get(`/v10/orders?sort[0][key]=updated_at&starting_after=${orders[0]!['id']}`)
          .set(shop.brand.headers);
        expect(startingAfter.status).toBe(422);
        expect(startingAfter.body.errors[0].source.parameter).toBe('starting_after');
      });

      it('filters on status, customer and creation time', async () => {
        expect((await listOrders(t, shop.brand, filter('status', 'approved'))).orders.map((o) => o['id'])).toEqual([
          orders[0]!['id'],
        ]);
        expect(
          (await listOrders(t, shop.brand, filter('customer_id', String(shop.customers['C-SHOP']!.id)))).orders.map(
            (o) => o['id'],
          ),
        ).toEqual([orders[2]!['id']]);
        const since = orders[1]!['created_at'] as string;
        expect(
          (await listOrders(t, shop.brand, filter('created_at', since, 'gte'))).orders.map((o) => o['id']),
        ).toEqual([orders[1]!['id'], orders[2]!['id']]);
        const page = await listOrders(t, shop.brand, `limit=1&starting_after=${orders[0]!['id']}`);
        expect(page.orders.map((o) => o['id'])).toEqual([orders[1]!['id']]);
        expect(page.has_more).toBe(true);
      });

      it("keeps another brand's orders out of sight", async () => {
        const other = await seedOrderingBrand(t);
        expect(await listOrders(t, other.brand)).toMatchObject({ orders: [], total: 0 });
      });
    });

    it('lists shipments by created_at DESC and filters them by status', async () => {
      const a = await b2bOrder([{ sku: 'TEE-S', quantity: 1 }]);
      const b = await b2bOrder([{ sku: 'TEE-M', quantity: 1 }]);
      await approveOrder(t, shop.brand, a['id'] as number);
      t.clock.advance(MINUTE);
      await approveOrder(t, shop.brand, b['id'] as number);
      await request(t.server).post(`/v10/orders/${b['id']}/cancel`).set(shop.brand.headers);
      const listed = await getOk(t, shop.brand, '/v10/shipments?sort[0][key]=created_at&sort[0][direction]=DESC');
      expect((listed['shipments'] as Record<string, unknown>[]).map((s) => s['order_id'])).toEqual([b['id'], a['id']]);
      const open = await getOk(t, shop.brand, `/v10/shipments?${filter('status', 'open')}`);
      expect((open['shipments'] as Record<string, unknown>[]).map((s) => s['order_id'])).toEqual([a['id']]);
    });

    it('creates and lists order channels, refusing an unknown order type', async () => {
      const created = await post('/v10/order-channels', { name: 'Fair', order_type: 'b2b', drop_id: null });
      expect(created.body.order_channel).toEqual({
        id: expect.any(Number),
        public_id: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
        name: 'Fair',
        order_type: 'b2b',
        auto_approve: false,
        drop_id: null,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      });
      const listed = await getOk(t, shop.brand, '/v10/order-channels');
      expect(listed).toMatchObject({ total: 3, has_more: false });
      expect((listed['order_channels'] as Record<string, unknown>[]).map((c) => c['name'])).toEqual([
        'ERP',
        'Webshop',
        'Fair',
      ]);
      const bad = await post('/v10/order-channels', { name: 'X', order_type: 'retail' });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0]).toMatchObject({
        source: { pointer: '/order_type' },
        detail: 'order_type must be one of b2b, b2c',
      });
    });

    it('needs fulfilment:read for shipments and orders:read for orders', async () => {
      const ordersOnly = await createIntegrator(t.storage, t.clock, { scopes: ['orders:read'] });
      expect((await request(t.server).get('/v10/shipments').set(ordersOnly.headers)).status).toBe(403);
      expect((await request(t.server).get('/v10/orders').set(ordersOnly.headers)).status).toBe(200);
      const fulfilment = await createIntegrator(t.storage, t.clock, { scopes: ['fulfilment:read'] });
      expect((await request(t.server).get('/v10/orders').set(fulfilment.headers)).status).toBe(403);
    });
  });
}
