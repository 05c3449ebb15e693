import { testDialects } from '@brand/persistence-kysely/testing';
import { ProductionBrand, seedProductionBrand } from './support/production';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;
const PRODUCTION_TYPES = ['production_order.approved', 'production_order.closed', 'delivery_note.received'];

for (const dialect of testDialects()) {
  describe(`production events [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let p: ProductionBrand;

    beforeEach(async () => {
      p = await seedProductionBrand(t);
    });

    /** The events of one type, oldest first, as the feed shows them. */
    const eventsOf = async (type: string): Promise<Body[]> => {
      const response = await p.get(
        `/v10/events?limit=100&filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=${type}`,
      );
      expect(response.status).toBe(200);
      return response.body.events as Body[];
    };
    /** The types of the brand's production events, oldest first (receipts also announce inventory.changed). */
    const productionTypes = async (): Promise<string[]> => {
      const response = await p.get('/v10/events?limit=100');
      expect(response.status).toBe(200);
      return (response.body.events as Body[])
        .map((e) => e['type'] as string)
        .filter((type) => PRODUCTION_TYPES.includes(type));
    };
    /** The production order as GET shows it now, without what an event leaves out. */
    const shownOrder = async (id: unknown): Promise<Body> => {
      const response = await p.get(`/v10/production-orders/${id}`);
      expect(response.status).toBe(200);
      const { timeline, ...order } = response.body.production_order as Body;
      expect(timeline).toEqual(expect.any(Array));
      return { ...order, exports: [] };
    };
    /** The delivery note as `GET /v10/production-order-delivery-notes` shows it now. */
    const shownNote = async (id: unknown): Promise<Body> => {
      const response = await p.get(
        `/v10/production-order-delivery-notes?filter_groups[0][filters][0][key]=id&filter_groups[0][filters][0][value]=${id}`,
      );
      expect(response.status).toBe(200);
      expect(response.body.production_order_delivery_notes).toHaveLength(1);
      return response.body.production_order_delivery_notes[0] as Body;
    };
    const event = (type: string, object: Body) => ({
      id: expect.stringMatching(/^evt_\d+$/),
      type,
      created_at: t.clock.now(),
      data: { object },
    });
    const receive = (deliveryNoteNumber: unknown, lines: Body[], extra: Body = {}) =>
      p.post('/3pl/production/receive', {
        production_order_delivery_note: {
          production_order_delivery_note_number: deliveryNoteNumber,
          lines,
          ...extra,
        },
      });

    it('announces an approval with the production order and its lines as GET shows it', async () => {
      const draft = await p.createOrder({ production_order_meta: { season: 'FW26' } });
      expect(await productionTypes()).toEqual([]);
      t.clock.advance(MINUTE);
      const approved = await p.post(`/v10/production-orders/${draft['id']}/approve`);
      expect(approved.status).toBe(200);

      const shown = await shownOrder(draft['id']);
      expect(shown).toMatchObject({ status: 'open', approved_at: t.clock.now() });
      expect(shown['lines']).toHaveLength(2);
      expect(await eventsOf('production_order.approved')).toEqual([event('production_order.approved', shown)]);

      const again = await p.post(`/v10/production-orders/${draft['id']}/approve`);
      expect(again.status).toBe(422);
      expect(again.body.errors[0].code).toBe('invalid_state_transition');
      expect((await p.post('/v10/production-orders/999999/approve')).status).toBe(404);
      expect(await productionTypes()).toEqual(['production_order.approved']);
    });

    it('announces each 3PL receipt with the whole delivery note as GET shows it at that moment', async () => {
      const order = await p.openOrder();
      const note = await p.announce(order['id'], [
        { sku: 'TEE-S', quantity: 12 },
        { sku: 'CAP-ONE', quantity: 10 },
      ]);

      t.clock.advance(MINUTE);
      const first = await receive(
        note['production_order_delivery_note_number'],
        [{ sku: 'TEE-S', received_quantity: 8 }],
        {
          meta: { dock: '3' },
        },
      );
      expect(first.status).toBe(200);
      const afterFirst = await shownNote(note['id']);
      expect(afterFirst).toMatchObject({
        status: 'received',
        received_at: t.clock.now(),
        meta: { dock: '3' },
        lines: [
          expect.objectContaining({ sku: 'TEE-S', received_quantity: 8 }),
          expect.objectContaining({ sku: 'CAP-ONE', received_quantity: 0 }),
        ],
      });
      const firstEvent = event('delivery_note.received', afterFirst);
      expect(await eventsOf('delivery_note.received')).toEqual([firstEvent]);

      t.clock.advance(MINUTE);
      const second = await receive(note['production_order_delivery_note_number'], [
        { sku: 'TEE-S', received_quantity: 6 },
        { ean: '5700000000035', received_quantity: 10 },
      ]);
      expect(second.status).toBe(200);
      const afterSecond = await shownNote(note['id']);
      expect((afterSecond['lines'] as Body[]).map((l) => l['received_quantity'])).toEqual([14, 10]);
      expect(await eventsOf('delivery_note.received')).toEqual([
        firstEvent,
        event('delivery_note.received', afterSecond),
      ]);
      expect(await productionTypes()).toEqual([
        'production_order.approved',
        'delivery_note.received',
        'delivery_note.received',
      ]);
    });

    it('announces nothing for refused receipts', async () => {
      const order = await p.openOrder();
      const note = await p.announce(order['id']);
      const number = note['production_order_delivery_note_number'];

      const refusals = [
        await receive(999, [{ sku: 'TEE-S', received_quantity: 1 }]),
        await receive(number, [
          { sku: 'TEE-S', received_quantity: 5 },
          { sku: 'SOCK-42', received_quantity: 1 },
        ]),
        await receive(number, [{ sku: 'TEE-S', received_quantity: -1 }]),
      ];
      expect(refusals.map((r) => r.status)).toEqual([422, 422, 422]);
      expect(await eventsOf('delivery_note.received')).toEqual([]);

      expect((await p.post(`/v10/production-orders/${order['id']}/close`)).status).toBe(200);
      const late = await receive(number, [{ sku: 'TEE-S', received_quantity: 1 }]);
      expect(late.status).toBe(422);
      expect(await eventsOf('delivery_note.received')).toEqual([]);
      expect(await shownNote(note['id'])).toMatchObject({ status: 'expected', received_at: null });
    });

    it('announces a closure with the production order as GET shows it, its receipts counted, without export marks', async () => {
      const order = await p.openOrder();
      const note = await p.announce(order['id'], [{ sku: 'TEE-S', quantity: 12 }]);
      expect(
        (await receive(note['production_order_delivery_note_number'], [{ sku: 'TEE-S', received_quantity: 12 }]))
          .status,
      ).toBe(200);
      const marked = await p.post('/v10/production-orders/mark-as-exported', {
        production_orders: [{ production_order_id: order['id'], system_id: 'erp' }],
      });
      expect(marked.status).toBe(200);

      const draft = await p.createOrder();
      const closingDraft = await p.post(`/v10/production-orders/${draft['id']}/close`);
      expect(closingDraft.status).toBe(422);
      expect(closingDraft.body.errors[0].code).toBe('invalid_state_transition');
      expect(await eventsOf('production_order.closed')).toEqual([]);

      t.clock.advance(MINUTE);
      const closed = await p.post(`/v10/production-orders/${order['id']}/close`);
      expect(closed.status).toBe(200);
      expect((closed.body.production_order as Body)['exports']).toEqual([
        expect.objectContaining({ system_id: 'erp' }),
      ]);

      const shown = await shownOrder(order['id']);
      expect(shown).toMatchObject({ status: 'closed', closed_at: t.clock.now() });
      expect((shown['lines'] as Body[]).map((l) => [l['sku'], l['expected_quantity'], l['received_quantity']])).toEqual(
        [
          ['TEE-S', 12, 12],
          ['CAP-ONE', 0, 0],
        ],
      );
      expect(await eventsOf('production_order.closed')).toEqual([event('production_order.closed', shown)]);

      expect((await p.post(`/v10/production-orders/${order['id']}/close`)).status).toBe(422);
      expect(await productionTypes()).toEqual([
        'production_order.approved',
        'delivery_note.received',
        'production_order.closed',
      ]);
    });
  });
}
