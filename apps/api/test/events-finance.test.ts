import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { OrderingBrand, approveOrder, changeSettings, getOk, placeOrder, seedOrderingBrand } from './support/orders';
import { EMAIL, aPortal, anOrderByEmail, finalize, line, upsert } from './support/return-portals';
import { useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
interface Event {
  id: string;
  type: string;
  created_at: string;
  data: { object: Body };
}

const MINUTE = 60_000;
const FINANCE_TYPES = [
  'invoice.created',
  'invoice.booked',
  'credit_note.created',
  'credit_note.booked',
  'order.archived',
];

/** What GET of a document shows that its event leaves out: the timeline, export marks and embedded documents. */
const withoutDetail = (shown: Body): Body => ({
  ...shown,
  timeline: undefined,
  exports: undefined,
  accounting_entry: undefined,
  credit_notes: undefined,
});

for (const dialect of testDialects()) {
  describe(`finance events [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body: Body = {}) => request(t.server).post(path).set(shop.brand.headers).send(body);
    /** `GET /v10/events` filtered by one type, oldest first. */
    const eventsOfType = async (type: string): Promise<Event[]> =>
      (
        await getOk(
          t,
          shop.brand,
          `/v10/events?limit=100&filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=${type}`,
        )
      )['events'] as Event[];
    /** The feed's finance events (and order.archived) as [type, object id], oldest first. */
    const financeFeed = async (): Promise<Array<[string, unknown]>> =>
      ((await getOk(t, shop.brand, '/v10/events?limit=100'))['events'] as Event[])
        .filter((e) => FINANCE_TYPES.includes(e.type))
        .map((e) => [e.type, e.data.object['id']]);

    /** An approved B2B order of 3 × TEE-S and 1 × CAP-ONE (7.50 shipping) with its one open shipment (lines included). */
    async function anApprovedOrder() {
      const placed = await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        shipping_cost: 7.5,
        lines: [
          { sku: 'TEE-S', quantity: 3 },
          { sku: 'CAP-ONE', quantity: 1 },
        ],
      });
      const order = await approveOrder(t, shop.brand, placed['id'] as number);
      const [shipment] = (await getOk(t, shop.brand, '/v10/shipments?includes[]=lines'))['shipments'] as Array<
        Body & { lines: Array<{ sku: string; quantity: number }> }
      >;
      return { order, shipment: shipment! };
    }
    /** `POST /3pl/shipments/deliver` of every piece of the shipment in one parcel. */
    const deliver = (shipment: Body & { lines: Array<{ sku: string; quantity: number }> }) =>
      post('/3pl/shipments/deliver', {
        delivery_note: {
          shipment_number: shipment['shipment_number'],
          order_type: 'b2b',
          carrier: 'gls',
          colli: [{ track_trace: 'GLS0001', lines: shipment.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })) }],
        },
      });

    it('announces the invoice a 3PL delivery drafts and its booking as GET shows them, then the order booking archived', async () => {
      await changeSettings(t, shop.brand, { invoicing: 'in_service' });
      const { order, shipment } = await anApprovedOrder();
      t.clock.advance(MINUTE);
      expect((await deliver(shipment)).status).toBe(200);
      const [listed] = (await getOk(t, shop.brand, '/v10/invoices'))['invoices'] as Body[];
      const invoiceId = listed!['id'] as number;
      const drafted = (await getOk(t, shop.brand, `/v10/invoices/${invoiceId}`))['invoice'] as Body;
      expect(drafted['status']).toBe('draft');
      // Delivering the same shipment again is refused and drafts nothing.
      expect((await deliver(shipment)).status).toBe(422);

      const created = await eventsOfType('invoice.created');
      expect(created).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'invoice.created',
          created_at: t.clock.now(),
          data: { object: withoutDetail(drafted) },
        },
      ]);
      expect(created[0]!.data.object['lines']).toHaveLength(3);

      t.clock.advance(MINUTE);
      const booking = await post(`/v10/invoices/${invoiceId}/book`);
      expect(booking.status).toBe(200);
      const booked = booking.body.invoice as Body;
      const archived = (await getOk(t, shop.brand, `/v10/orders/${order['id']}`))['order'] as Body;
      expect(archived['status']).toBe('archived');
      const again = await post(`/v10/invoices/${invoiceId}/book`);
      expect(again.status).toBe(422);

      expect(await eventsOfType('invoice.booked')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'invoice.booked',
          created_at: t.clock.now(),
          data: { object: withoutDetail(booked) },
        },
      ]);
      expect(booked['booked_at']).toBe(t.clock.now());
      expect(await eventsOfType('order.archived')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'order.archived',
          created_at: t.clock.now(),
          data: { object: { ...archived, timeline: undefined, exports: [] } },
        },
      ]);
      expect(await financeFeed()).toEqual([
        ['invoice.created', invoiceId],
        ['invoice.booked', invoiceId],
        ['order.archived', order['id']],
      ]);
    });

    it('announces order.updated after invoice.booked when booking regulates pieces but leaves the order open, as GET shows it', async () => {
      await changeSettings(t, shop.brand, { invoicing: 'in_service' });
      const { order, shipment } = await anApprovedOrder();
      // Two of the three TEE-S arrive: the invoice bills 2 × TEE-S and the cap, one TEE-S stays open.
      const partial = {
        ...shipment,
        lines: shipment.lines.map((l) => (l.sku === 'TEE-S' ? { ...l, quantity: 2 } : l)),
      };
      expect((await deliver(partial)).status).toBe(200);
      const [listed] = (await getOk(t, shop.brand, '/v10/invoices'))['invoices'] as Body[];
      const invoiceId = listed!['id'] as number;
      const updatesBefore = await eventsOfType('order.updated');

      t.clock.advance(MINUTE);
      expect((await post(`/v10/invoices/${invoiceId}/book`)).status).toBe(200);
      const shown = (await getOk(t, shop.brand, `/v10/orders/${order['id']}`))['order'] as Body;
      t.clock.advance(MINUTE);
      expect((await post(`/v10/invoices/${invoiceId}/book`)).status).toBe(422);

      expect(shown['status']).toBe('approved');
      expect((shown['lines'] as Body[]).map((l) => [l['regulated_quantity'], l['reserved_quantity']])).toEqual([
        [2, 1],
        [1, 0],
      ]);
      expect((await eventsOfType('order.updated')).slice(updatesBefore.length)).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'order.updated',
          created_at: new Date(Date.parse(t.clock.now()) - MINUTE).toISOString(),
          data: { object: { ...shown, timeline: undefined, exports: [] } },
        },
      ]);
      const feed = ((await getOk(t, shop.brand, '/v10/events?limit=100'))['events'] as Event[]).map((e) => e.type);
      expect(feed.slice(feed.indexOf('invoice.booked'))).toEqual(['invoice.booked', 'order.updated']);
      expect(await eventsOfType('order.archived')).toEqual([]);
      // The order's regulated entry is the event's, written once, after the booking's.
      expect((shown['timeline'] as Body[]).slice(-2).map((e) => e['kind'])).toEqual(['booked', 'regulated']);
    });

    it('announces a credit note of an invoice and its booking as GET shows them, and no refused call', async () => {
      await changeSettings(t, shop.brand, { invoicing: 'in_service' });
      const { shipment } = await anApprovedOrder();
      expect((await deliver(shipment)).status).toBe(200);
      const [listed] = (await getOk(t, shop.brand, '/v10/invoices'))['invoices'] as Body[];
      const invoiceId = listed!['id'] as number;
      // A draft invoice cannot be credited.
      expect((await post(`/v10/invoices/${invoiceId}/credit-notes`)).status).toBe(422);
      expect((await post(`/v10/invoices/${invoiceId}/book`)).status).toBe(200);

      t.clock.advance(MINUTE);
      const drafting = await post(`/v10/invoices/${invoiceId}/credit-notes`, {
        lines: [{ sku: 'TEE-S', quantity: 1 }],
      });
      expect(drafting.status).toBe(201);
      const noteId = drafting.body.credit_note.id as number;
      const drafted = (await getOk(t, shop.brand, `/v10/credit-notes/${noteId}`))['credit_note'] as Body;
      const tooMany = await post(`/v10/invoices/${invoiceId}/credit-notes`, { lines: [{ sku: 'TEE-S', quantity: 9 }] });
      expect(tooMany.status).toBe(422);

      expect(await eventsOfType('credit_note.created')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'credit_note.created',
          created_at: t.clock.now(),
          data: { object: withoutDetail(drafted) },
        },
      ]);
      expect(withoutDetail(drafted)).toEqual({ ...drafting.body.credit_note, exports: undefined });

      t.clock.advance(MINUTE);
      const booking = await post(`/v10/credit-notes/${noteId}/book`);
      expect(booking.status).toBe(200);
      const booked = booking.body.credit_note as Body;
      expect(booked['status']).toBe('booked');
      expect((await post(`/v10/credit-notes/${noteId}/book`)).status).toBe(422);

      expect(await eventsOfType('credit_note.booked')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'credit_note.booked',
          created_at: t.clock.now(),
          data: { object: withoutDetail(booked) },
        },
      ]);
      expect((await financeFeed()).map(([type]) => type)).toEqual([
        'invoice.created',
        'invoice.booked',
        'order.archived',
        'credit_note.created',
        'credit_note.booked',
      ]);
    });

    it('announces each order a mark-as-exported with regulate_inventory archives, as GET shows it, and nothing for a refused call', async () => {
      const { order } = await anApprovedOrder();
      const draft = await placeOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        lines: [{ sku: 'TEE-M', quantity: 1 }],
      });
      const mark = (items: Array<{ order_id: unknown; regulate_inventory: boolean }>) =>
        post('/v10/orders/mark-as-exported', {
          orders: items.map((item) => ({ ...item, system_id: 'erp' })),
        });

      // A draft cannot be archived: the whole call is refused.
      const refused = await mark([
        { order_id: order['id'], regulate_inventory: true },
        { order_id: draft['id'], regulate_inventory: true },
      ]);
      expect(refused.status).toBe(422);
      expect((await mark([{ order_id: order['id'], regulate_inventory: false }])).status).toBe(200);
      expect(await eventsOfType('order.archived')).toEqual([]);

      t.clock.advance(MINUTE);
      expect((await mark([{ order_id: order['id'], regulate_inventory: true }])).status).toBe(200);
      const archived = (await getOk(t, shop.brand, `/v10/orders/${order['id']}`))['order'] as Body;
      expect(archived['status']).toBe('archived');
      // Marking an archived order again archives nothing more.
      t.clock.advance(MINUTE);
      expect((await mark([{ order_id: order['id'], regulate_inventory: true }])).status).toBe(200);

      expect(await eventsOfType('order.archived')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'order.archived',
          created_at: archived['archived_at'],
          data: { object: { ...archived, timeline: undefined, exports: [] } },
        },
      ]);
      expect(archived['archived_at']).toBe(new Date(Date.parse(t.clock.now()) - MINUTE).toISOString());
    });

    it('announces the credit note a return portal books when it finalizes a return, and nothing for a refused call', async () => {
      const bought = await anOrderByEmail(t, shop);
      const portal = await aPortal(t, shop.brand);
      const ret = { rma: 'RMA-7', lines: [line('TEE-S', { unit_price_incl_vat: 25 })] };
      const created = await upsert(t, shop.brand, portal, {
        email: EMAIL,
        order_number: bought.order_number,
        return: ret,
      });
      expect(created.status).toBe(201);
      const received = await upsert(t, shop.brand, portal, { return: { ...ret, status: 'received' } });
      expect(received.status).toBe(200);

      t.clock.advance(MINUTE);
      const refused = await finalize(t, shop.brand, portal, { rma: 'RMA-7', refund_total_price_after_vat: 5 });
      expect(refused.status).toBe(422);
      expect(await eventsOfType('credit_note.booked')).toEqual([]);

      t.clock.advance(MINUTE);
      const done = await finalize(t, shop.brand, portal, { rma: 'RMA-7', refund_total_price_after_vat: 25 });
      expect(done.status).toBe(200);
      const [listed] = (await getOk(t, shop.brand, '/v10/credit-notes'))['credit_notes'] as Body[];
      const booked = (await getOk(t, shop.brand, `/v10/credit-notes/${listed!['id']}`))['credit_note'] as Body;
      expect(booked['status']).toBe('booked');
      t.clock.advance(MINUTE);
      expect((await finalize(t, shop.brand, portal, { rma: 'RMA-7', refund_total_price_after_vat: 25 })).status).toBe(
        200,
      );

      expect(await eventsOfType('credit_note.booked')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'credit_note.booked',
          created_at: booked['booked_at'],
          data: { object: withoutDetail(booked) },
        },
      ]);
    });
  });
}
