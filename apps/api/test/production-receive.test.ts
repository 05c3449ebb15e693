import { testDialects } from '@brand/persistence-kysely/testing';
import { stockOf } from './support/orders';
import { ProductionBrand, seedProductionBrand } from './support/production';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;
const pointers = (body: { errors: { source?: { pointer?: string } }[] }) => body.errors.map((e) => e.source?.pointer);

for (const dialect of testDialects()) {
  describe(`3PL production: delivery notes and receipts [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let p: ProductionBrand;
    let order: Body;
    let note: Body;

    beforeEach(async () => {
      p = await seedProductionBrand(t);
      order = await p.openOrder({ production_order_meta: { season: 'FW26' } });
      note = await p.announce(
        order['id'],
        [
          { sku: 'TEE-S', quantity: 12 },
          { sku: 'CAP-ONE', quantity: 10 },
        ],
        { meta: { truck: 'T1' }, expected_delivery: '2026-09-15' },
      );
    });

    const receive = (lines: Body[], extra: Body = {}) =>
      p.post('/3pl/production/receive', {
        production_order_delivery_note: {
          production_order_delivery_note_number: note['production_order_delivery_note_number'],
          lines,
          ...extra,
        },
      });

    it('lists delivery notes in the 3PL form with supplier, both metas and total', async () => {
      const response = await p.get('/3pl/production/orders/delivery-notes');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: 1, has_more: false });
      expect(response.body.production_order_delivery_notes[0]).toEqual({
        id: note['id'],
        production_order_delivery_note_number: 1,
        production_order_number: order['production_order_number'],
        status: 'expected',
        supplier_number: 'SUP-1',
        supplier: 'Porto Mills',
        currency: 'EUR',
        expected_delivery: '2026-09-15',
        notes: null,
        production_order_delivery_note_meta: { truck: 'T1' },
        production_order_meta: { season: 'FW26' },
        received_at: null,
        created_at: note['created_at'],
        updated_at: note['updated_at'],
        lines: [
          expect.objectContaining({
            sku: 'TEE-S',
            ean: '5700000000011',
            full_name: expect.stringContaining('T-shirt'),
            expected_quantity: 12,
            received_quantity: 0,
          }),
          expect.objectContaining({
            sku: 'CAP-ONE',
            country_of_origin: 'PT',
            composition: '100% cotton',
            hs_tariff_code: '650500',
            expected_quantity: 10,
            received_quantity: 0,
          }),
        ],
      });
      const other = await p.get(
        '/3pl/production/orders/delivery-notes?filter_groups[0][filters][0][key]=supplier_id&filter_groups[0][filters][0][value]=999999',
      );
      expect(other.body).toMatchObject({ total: 0, production_order_delivery_notes: [] });
    });

    it('receives pieces into In stock (shown by inventory-available), accumulating over calls and merging meta', async () => {
      expect(await stockOf(t, p.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 10 });
      t.clock.advance(MINUTE);
      const first = await receive(
        [
          { sku: 'TEE-S', received_quantity: 8 },
          { ean: '5700000000035', received_quantity: 0 },
        ],
        {
          meta: { dock: '3' },
          production_order_delivery_note_meta: { ignored: true },
        },
      );
      expect(first.status).toBe(200);
      expect(first.body.production_order_delivery_note).toMatchObject({
        status: 'received',
        received_at: t.clock.now(),
        production_order_delivery_note_meta: { truck: 'T1', dock: '3' },
        lines: [
          expect.objectContaining({ sku: 'TEE-S', received_quantity: 8 }),
          expect.objectContaining({ sku: 'CAP-ONE', received_quantity: 0 }),
        ],
      });
      expect(await stockOf(t, p.brand, 'TEE-S')).toEqual({ in_stock: 18, available: 18 });
      expect(await stockOf(t, p.brand, 'CAP-ONE')).toEqual({ in_stock: 5, available: 5 });

      // The rest arrives later, with more than announced: the warehouse reports what came.
      const second = await receive([
        { sku: 'TEE-S', received_quantity: 6 },
        { sku: 'CAP-ONE', received_quantity: 10 },
      ]);
      expect(second.status).toBe(200);
      expect(second.body.production_order_delivery_note.lines.map((l: Body) => l['received_quantity'])).toEqual([
        14, 10,
      ]);
      expect(second.body.production_order_delivery_note.production_order_delivery_note_meta).toEqual({
        truck: 'T1',
        dock: '3',
      });
      expect(await stockOf(t, p.brand, 'TEE-S')).toEqual({ in_stock: 24, available: 24 });
      expect(await stockOf(t, p.brand, 'CAP-ONE')).toEqual({ in_stock: 15, available: 15 });

      const read = (await p.get(`/v10/production-orders/${order['id']}`)).body.production_order as Body;
      expect((read['lines'] as Body[]).map((l) => [l['sku'], l['expected_quantity'], l['received_quantity']])).toEqual([
        ['TEE-S', 12, 14],
        ['CAP-ONE', 10, 10],
      ]);
      expect((read['timeline'] as Body[]).map((e) => e['kind'])).toEqual([
        'created',
        'approved',
        'delivery_note_created',
        'delivery_note_received',
        'delivery_note_received',
      ]);
    });

    it('refuses an unknown note, lines not on the note and bad counts with 422 naming the field, booking nothing', async () => {
      const unknown = await p.post('/3pl/production/receive', {
        production_order_delivery_note: {
          production_order_delivery_note_number: 999,
          lines: [{ sku: 'TEE-S', received_quantity: 1 }],
        },
      });
      expect(unknown.status).toBe(422);
      expect(pointers(unknown.body)).toEqual(['/production_order_delivery_note/production_order_delivery_note_number']);

      const partlyWrong = await receive([
        { sku: 'TEE-S', received_quantity: 5 },
        { sku: 'SOCK-42', received_quantity: 1 },
      ]);
      expect(partlyWrong.status).toBe(422);
      expect(pointers(partlyWrong.body)).toEqual(['/production_order_delivery_note/lines/1/sku']);
      expect(await stockOf(t, p.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 10 });

      const negative = await receive([{ sku: 'TEE-S', received_quantity: -1 }]);
      expect(negative.status).toBe(422);
      expect(pointers(negative.body)).toEqual(['/production_order_delivery_note/lines/0/received_quantity']);
      const noKey = await receive([{ received_quantity: 1 }]);
      expect(noKey.status).toBe(422);
      expect(pointers(noKey.body)).toEqual(['/production_order_delivery_note/lines/0/sku']);
      const missing = await p.post('/3pl/production/receive', {});
      expect(missing.status).toBe(422);
      expect(pointers(missing.body)).toEqual(['/production_order_delivery_note']);

      const list = await p.get('/3pl/production/orders/delivery-notes');
      expect(list.body.production_order_delivery_notes[0]).toMatchObject({ status: 'expected', received_at: null });
    });

    it('refuses receipts once the production order is closed', async () => {
      expect((await p.post(`/v10/production-orders/${order['id']}/close`)).status).toBe(200);
      const late = await receive([{ sku: 'TEE-S', received_quantity: 1 }]);
      expect(late.status).toBe(422);
      expect(pointers(late.body)).toEqual(['/production_order_delivery_note/production_order_delivery_note_number']);
      expect(await stockOf(t, p.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 10 });
    });
  });
}
