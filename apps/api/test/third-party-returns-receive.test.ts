import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { OrderingBrand, getOk, seedOrderingBrand, stockOf } from './support/orders';
import { aDeliveredOrder, anRma, creditNotesOf, returnOf } from './support/returns';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;

for (const dialect of testDialects()) {
  describe(`3PL returns: list, export, receive and mark [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body: Body) => request(t.server).post(path).set(shop.brand.headers).send(body);
    const exported = async (query = '') =>
      ((await getOk(t, shop.brand, `/3pl/returns/export?system_id=wms${query}`))['returns'] as Body[]).map(
        (r) => r['id'],
      );

    it('exports an approved RMA in the warehouse form with every field of the spec', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const rma = await anRma(t, shop.brand, order.order_number, [
        { sku: 'TEE-S', quantity: 2 },
        { sku: 'CAP-ONE', quantity: 1, claim_type: 'claim' },
      ]);

      const response = await request(t.server).get('/3pl/returns/export?system_id=wms').set(shop.brand.headers);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ returns: [expect.any(Object)], has_more: false, next_cursor: null });
      const wire = response.body.returns[0] as Body;
      expect(wire).toEqual({
        id: rma.id,
        return_number: 1,
        rma: '1',
        status: 'approved',
        order_number: order.order_number,
        customer_number: 'C-B2B',
        customer: 'Wholesale Ltd',
        customer_meta: {},
        customer_vat_number: null,
        currency: 'EUR',
        notes: null,
        return_meta: {},
        shipping_method: null,
        track_trace: null,
        track_trace_link: null,
        carrier_code: null,
        carrier_label: null,
        created_at: rma['created_at'],
        updated_at: rma['updated_at'],
        lines: [
          {
            product_name: 'T-shirt',
            item_number: 'TEE',
            attributes: { size: 'S' },
            full_name: 'T-shirt - S',
            sku: 'TEE-S',
            ean: '5700000000011',
            country_of_origin: null,
            composition: null,
            hs_tariff_code: null,
            returned: 0,
            expected_quantity: 2,
          },
          {
            product_name: 'Cap',
            item_number: 'CAP',
            attributes: { size: 'One size' },
            full_name: 'Cap - One size',
            sku: 'CAP-ONE',
            ean: '5700000000035',
            country_of_origin: 'PT',
            composition: '100% cotton',
            hs_tariff_code: '650500',
            returned: 0,
            expected_quantity: 1,
          },
        ],
        exports: [],
      });
    });

    it('receives an approved RMA: returned pieces back in stock, a draft credit note for what arrived', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const rma = await anRma(t, shop.brand, order.order_number, [
        { sku: 'TEE-S', quantity: 2 },
        { sku: 'CAP-ONE', quantity: 2, claim_type: 'claim' },
      ]);
      const before = { tee: await stockOf(t, shop.brand, 'TEE-S'), cap: await stockOf(t, shop.brand, 'CAP-ONE') };
      t.clock.advance(MINUTE);

      const response = await post('/3pl/returns/receive', {
        return: {
          rma: rma.rma,
          lines: [
            { sku: 'TEE-S', received_quantity: 2 },
            { ean: '5700000000035', received_quantity: 1 },
          ],
        },
      });

      expect(response.status).toBe(200);
      expect(response.body.return).toMatchObject({ id: rma.id, status: 'received', updated_at: t.clock.now() });
      expect(
        (response.body.return.lines as Body[]).map((l) => [l['sku'], l['returned'], l['expected_quantity']]),
      ).toEqual([
        ['TEE-S', 2, 2],
        ['CAP-ONE', 1, 2],
      ]);
      // Returned shirts go back on the shelf; the claimed cap does not.
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({
        in_stock: before.tee.in_stock + 2,
        available: before.tee.available + 2,
      });
      expect(await stockOf(t, shop.brand, 'CAP-ONE')).toEqual(before.cap);
      // 2 × 9.00 + 1 × 4.95 net (10 % customer discount), 25 % VAT.
      const notes = await creditNotesOf(t, shop.brand);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({
        status: 'draft',
        return_id: rma.id,
        invoice_id: null,
        order_id: order.id,
        net_total: 22.95,
        vat_total: 5.74,
        total: 28.69,
      });
      expect(notes[0]!.lines.map((l) => [l['kind'], l['sku'], l['quantity'], l['total_price']])).toEqual([
        ['product', 'TEE-S', 2, 18],
        ['product', 'CAP-ONE', 1, 4.95],
      ]);
      const read = await returnOf(t, shop.brand, rma.id);
      expect(read).toMatchObject({ status: 'received', received_at: t.clock.now() });
      expect(read.credit_notes.map((c) => c['id'])).toEqual([notes[0]!['id']]);
      expect(read.timeline.map((e) => e['kind'])).toEqual(['created', 'approved', 'received']);

      const again = await post('/3pl/returns/receive', {
        return: { rma: rma.rma, lines: [{ sku: 'TEE-S', received_quantity: 1 }] },
      });
      expect(again.status).toBe(422);
      expect(again.body.errors[0]).toMatchObject({ code: 'invalid_state_transition' });
      expect(await creditNotesOf(t, shop.brand)).toHaveLength(1);
    });

    it('refuses a receipt with any bad line as a whole, naming each, and changes nothing', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const rma = await anRma(t, shop.brand, order.order_number, [{ sku: 'TEE-S', quantity: 2 }]);
      const before = await stockOf(t, shop.brand, 'TEE-S');

      const response = await post('/3pl/returns/receive', {
        return: {
          rma: rma.rma,
          lines: [
            { sku: 'TEE-S', received_quantity: 3 },
            { sku: 'CAP-ONE', received_quantity: 1 },
          ],
        },
      });

      expect(response.status).toBe(422);
      expect(response.body.errors.map((e: Body) => (e['source'] as Body)['pointer'])).toEqual([
        '/return/lines/1/sku',
        '/return/lines/0/received_quantity',
      ]);
      expect(response.body.errors[1].detail).toContain('3 pieces received, but return 1 expects 2');
      expect((await returnOf(t, shop.brand, rma.id)).status).toBe('approved');
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual(before);
      expect(await creditNotesOf(t, shop.brand)).toEqual([]);

      const unknown = await post('/3pl/returns/receive', {
        return: { rma: 'NOPE-1', lines: [{ sku: 'TEE-S', received_quantity: 1 }] },
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source).toEqual({ pointer: '/return/rma' });
      const nothing = await post('/3pl/returns/receive', {
        return: { rma: rma.rma, lines: [{ sku: 'TEE-S', received_quantity: 0 }] },
      });
      expect(nothing.status).toBe(422);
      expect(nothing.body.errors[0].source).toEqual({ pointer: '/return/lines' });
      const shape = await post('/3pl/returns/receive', {
        return: { lines: [{ sku: 'TEE-S', received_quantity: -1 }] },
      });
      expect(shape.status).toBe(422);
      expect(shape.body.errors.map((e: Body) => (e['source'] as Body)['pointer']).sort()).toEqual([
        '/return/lines/0/received_quantity',
        '/return/rma',
      ]);
      expect((await post('/3pl/returns/receive', {})).body.errors[0].source).toEqual({ pointer: '/return' });
    });

    it('receives an RMA once when the warehouse reports it several times at the same moment', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const rma = await anRma(t, shop.brand, order.order_number, [{ sku: 'TEE-S', quantity: 2 }]);
      const before = await stockOf(t, shop.brand, 'TEE-S');

      const responses = await Promise.all(
        Array.from({ length: 5 }, () =>
          post('/3pl/returns/receive', { return: { rma: rma.rma, lines: [{ sku: 'TEE-S', received_quantity: 2 }] } }),
        ),
      );

      expect(responses.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
      expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({
        in_stock: before.in_stock + 2,
        available: before.available + 2,
      });
      expect(await creditNotesOf(t, shop.brand)).toHaveLength(1);
    });

    it('does not let the warehouse receive an RMA that is not approved yet', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const open = await anRma(t, shop.brand, order.order_number, [{ sku: 'TEE-S', quantity: 1 }], { approve: false });
      const response = await post('/3pl/returns/receive', {
        return: { rma: open.rma, lines: [{ sku: 'TEE-S', received_quantity: 1 }] },
      });
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({
        code: 'invalid_state_transition',
        detail: 'return 1 is open: only an approved return can be received',
      });
      expect((await returnOf(t, shop.brand, open.id)).status).toBe('open');
    });

    it('exports approved RMAs (drafts and received ones on request) until the system marks them', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const open = await anRma(t, shop.brand, order.order_number, [{ sku: 'TEE-S', quantity: 1 }], { approve: false });
      const approved = await anRma(t, shop.brand, order.order_number, [{ sku: 'TEE-S', quantity: 1 }]);
      const received = await anRma(t, shop.brand, order.order_number, [{ sku: 'CAP-ONE', quantity: 1 }]);
      expect(
        (
          await post('/3pl/returns/receive', {
            return: { rma: received.rma, lines: [{ sku: 'CAP-ONE', received_quantity: 1 }] },
          })
        ).status,
      ).toBe(200);

      expect(await exported()).toEqual([approved.id]);
      expect(await exported('&include_drafts=1')).toEqual([open.id, approved.id]);
      expect(await exported('&include_received=1')).toEqual([approved.id, received.id]);
      expect(
        (await request(t.server).get('/3pl/returns/export?system_id=wms&include_drafts=yes').set(shop.brand.headers))
          .status,
      ).toBe(422);

      t.clock.advance(MINUTE);
      const marked = await post('/3pl/returns/mark-as-exported', {
        returns: [{ return_id: approved.id, system_id: 'wms', note: 'in the WMS' }],
      });
      expect(marked.status).toBe(200);
      expect(marked.body.returns).toEqual([
        expect.objectContaining({
          id: approved.id,
          exports: [{ system_id: 'wms', exported_at: t.clock.now(), note: 'in the WMS' }],
        }),
      ]);
      expect(await exported()).toEqual([]);
      expect(
        ((await getOk(t, shop.brand, '/3pl/returns/export?system_id=erp'))['returns'] as Body[]).map((r) => r['id']),
      ).toEqual([approved.id]);
      const timeline = (await returnOf(t, shop.brand, approved.id)).timeline;
      expect(timeline.at(-1)).toMatchObject({ kind: 'exported', system_id: 'wms', note: 'in the WMS' });

      const unknown = await post('/3pl/returns/mark-as-exported', {
        returns: [
          { return_id: open.id, system_id: 'wms' },
          { return_id: 999999, system_id: 'wms' },
        ],
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source).toEqual({ pointer: '/returns/1/return_id' });
      expect(await exported('&include_drafts=1')).toEqual([open.id]);
    });

    it('lists returns of every status in the warehouse form, with total', async () => {
      const { order } = await aDeliveredOrder(t, shop);
      const open = await anRma(t, shop.brand, order.order_number, [{ sku: 'TEE-S', quantity: 1 }], { approve: false });
      const approved = await anRma(t, shop.brand, order.order_number, [{ sku: 'CAP-ONE', quantity: 1 }]);

      const listed = await getOk(
        t,
        shop.brand,
        `/3pl/returns?limit=1&filter_groups[0][filters][0][key]=customer_id&filter_groups[0][filters][0][value]=${shop.customers['C-B2B']!.id}`,
      );

      expect(listed).toMatchObject({ total: 2, has_more: true });
      expect((listed['returns'] as Body[]).map((r) => [r['id'], r['status']])).toEqual([[open.id, 'open']]);
      const next = await getOk(t, shop.brand, `/3pl/returns?limit=1&page=1`);
      expect((next['returns'] as Body[]).map((r) => [r['id'], r['status']])).toEqual([[approved.id, 'approved']]);
    });
  });
}
