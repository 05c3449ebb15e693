import request from 'supertest';
import { testDialects } from '@brand/persistence-kysely/testing';
import { storageFailingBeforeCommit } from './support/failing-storage';
import { OrderingBrand, approveOrder, changeSettings, getOk, placeOrder, seedOrderingBrand } from './support/orders';
import { buildApp, closeServer, listenOnLoopback, useTestApp } from './support/test-app';

type Body = Record<string, unknown>;
const MINUTE = 60_000;

for (const dialect of testDialects()) {
  describe(`shipment events [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let shop: OrderingBrand;

    beforeEach(async () => {
      shop = await seedOrderingBrand(t);
    });

    const post = (path: string, body: Body) => request(t.server).post(path).set(shop.brand.headers).send(body);
    /** `GET /v10/events` filtered by one type, oldest first. */
    const eventsOfType = async (type: string): Promise<Body[]> =>
      (
        await getOk(
          t,
          shop.brand,
          `/v10/events?limit=100&filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=${type}`,
        )
      )['events'] as Body[];
    /**
     * Types and object ids of the brand's events of the given resources (`order`, `shipment`), oldest
     * first, over every page of the feed (other modules announce their changes beside them).
     */
    const feed = async (...resources: string[]): Promise<[unknown, unknown][]> => {
      const all: Body[] = [];
      let cursor: string | null = null;
      do {
        const page = await getOk(
          t,
          shop.brand,
          `/v10/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        all.push(...(page['events'] as Body[]));
        cursor = page['next_cursor'] as string | null;
      } while (cursor);
      return all
        .filter((e) => resources.some((r) => (e['type'] as string).startsWith(`${r}.`)))
        .map((e) => [e['type'], ((e['data'] as Body)['object'] as Body)['id']]);
    };
    /** `GET /v10/shipments/{id}` as an event shows it: without the timeline and the export marks. */
    const shownAsEvent = async (shipmentId: unknown): Promise<Body> => {
      const shown = (await getOk(t, shop.brand, `/v10/shipments/${shipmentId as number}`))['shipment'] as Body;
      expect(shown['timeline']).toEqual(expect.any(Array));
      return { ...shown, timeline: undefined, exports: undefined };
    };
    /** `GET /v10/orders/{id}` as an event shows it: without the timeline, and with no export marks. */
    const orderShownAsEvent = async (orderId: unknown): Promise<Body> => {
      const shown = (await getOk(t, shop.brand, `/v10/orders/${orderId as number}`))['order'] as Body;
      expect(shown['timeline']).toEqual(expect.any(Array));
      return { ...shown, timeline: undefined, exports: [] };
    };
    /** The kinds of the order's timeline entries, oldest first. */
    const timelineKinds = async (orderId: unknown): Promise<unknown[]> =>
      (((await getOk(t, shop.brand, `/v10/orders/${orderId as number}`))['order'] as Body)['timeline'] as Body[]).map(
        (e) => e['kind'],
      );
    const shipmentsOf = async (orderId: unknown): Promise<Body[]> =>
      ((await getOk(t, shop.brand, `/v10/orders/${orderId as number}?includes[]=shipments`))['order'] as Body)[
        'shipments'
      ] as Body[];
    const place = (lines: { sku: string; quantity: number }[], extra: Body = {}) =>
      placeOrder(t, shop.brand, shop.channels.b2b, { customer_number: 'C-B2B', lines, ...extra });
    const deliveryNote = (shipment: Body, lines: Body[], extra: Body = {}) => ({
      delivery_note: {
        shipment_number: shipment['shipment_number'],
        order_type: 'b2b',
        carrier: 'gls',
        colli: [{ track_trace: 'GLS0001', lines }],
        ...extra,
      },
    });

    it('announces the shipment an approval makes, after order.approved, as GET shows it', async () => {
      const placed = await place(
        [
          { sku: 'TEE-S', quantity: 2 },
          { sku: 'CAP-ONE', quantity: 1 },
        ],
        { shipping_cost: 9.95 },
      );
      t.clock.advance(MINUTE);
      await approveOrder(t, shop.brand, placed['id'] as number);
      const [shipment] = await shipmentsOf(placed['id']);

      expect(await feed('order', 'shipment')).toEqual([
        ['order.created', placed['id']],
        ['order.approved', placed['id']],
        ['shipment.created', shipment!['id']],
      ]);
      expect(await eventsOfType('shipment.created')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'shipment.created',
          created_at: t.clock.now(),
          data: { object: await shownAsEvent(shipment!['id']) },
        },
      ]);
      expect(shipment).toMatchObject({ status: 'open', shipping_cost: 9.95, created_at: t.clock.now() });
    });

    it('announces the shipment of an order placed on a channel that approves at once', async () => {
      const auto = await seedOrderingBrand(t, { b2bChannel: { auto_approve: true } });
      shop = auto;
      const placed = await place([{ sku: 'TEE-M', quantity: 3 }]);
      const [shipment] = await shipmentsOf(placed['id']);

      expect(await feed('order', 'shipment')).toEqual([
        ['order.created', placed['id']],
        ['order.approved', placed['id']],
        ['shipment.created', shipment!['id']],
      ]);
      const [created] = await eventsOfType('shipment.created');
      expect(created!['created_at']).toBe(placed['created_at']);
      expect((created!['data'] as Body)['object']).toEqual(await shownAsEvent(shipment!['id']));
    });

    it('announces each partial shipment as GET shows it, and nothing for a refused one or an approval without a shipment', async () => {
      const placed = await place([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'TEE-M', quantity: 2 },
      ]);
      const onDraft = await post(`/v10/orders/${placed['id']}/shipments`, { lines: [{ sku: 'TEE-S', quantity: 1 }] });
      expect(onDraft.status).toBe(422);
      await approveOrder(t, shop.brand, placed['id'] as number, { create_shipment: false });
      expect(await feed('shipment')).toEqual([]);

      t.clock.advance(MINUTE);
      const first = await post(`/v10/orders/${placed['id']}/shipments`, { lines: [{ sku: 'TEE-S', quantity: 2 }] });
      expect(first.status).toBe(201);
      const firstAt = t.clock.now();
      t.clock.advance(MINUTE);
      const second = await post(`/v10/orders/${placed['id']}/shipments`, {
        lines: [
          { sku: 'TEE-S', quantity: 1 },
          { ean: '5700000000028', quantity: 2 },
        ],
      });
      expect(second.status).toBe(201);
      const tooMany = await post(`/v10/orders/${placed['id']}/shipments`, { lines: [{ sku: 'TEE-M', quantity: 1 }] });
      expect(tooMany.status).toBe(422);
      const unknown = await post(`/v10/orders/${placed['id']}/shipments`, { lines: [{ sku: 'NOPE', quantity: 1 }] });
      expect(unknown.status).toBe(422);

      const events = await eventsOfType('shipment.created');
      expect(events.map((e) => [(e['data'] as Body)['object'], e['created_at']])).toEqual([
        [await shownAsEvent(first.body.shipment.id), firstAt],
        [await shownAsEvent(second.body.shipment.id), t.clock.now()],
      ]);
      expect(first.body.shipment).toEqual({ ...((events[0]!['data'] as Body)['object'] as Body), exports: [] });
    });

    it('announces a delivery reported through /3pl once, with the completed shipment as GET shows it, and nothing for a refused report', async () => {
      const placed = await place([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'CAP-ONE', quantity: 1 },
      ]);
      await approveOrder(t, shop.brand, placed['id'] as number);
      const [shipment] = await shipmentsOf(placed['id']);
      t.clock.advance(MINUTE);

      const wrongType = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment!, [{ sku: 'TEE-S', quantity: 1 }], { order_type: 'b2c' }),
      );
      expect(wrongType.status).toBe(422);
      const tooMany = await post('/3pl/shipments/deliver', deliveryNote(shipment!, [{ sku: 'TEE-S', quantity: 4 }]));
      expect(tooMany.status).toBe(422);
      expect(await eventsOfType('shipment.delivered')).toEqual([]);

      const delivered = await post(
        '/3pl/shipments/deliver',
        deliveryNote(shipment!, [
          { sku: 'TEE-S', quantity: 3 },
          { ean: '5700000000035', quantity: 1 },
        ]),
      );
      expect(delivered.status).toBe(200);
      const deliveredAt = t.clock.now();
      const shown = await shownAsEvent(shipment!['id']);
      t.clock.advance(MINUTE);
      const again = await post('/3pl/shipments/deliver', deliveryNote(shipment!, [{ sku: 'TEE-S', quantity: 1 }]));
      expect(again.status).toBe(422);
      expect(again.body.errors[0].code).toBe('invalid_state_transition');

      expect(await eventsOfType('shipment.delivered')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'shipment.delivered',
          created_at: deliveredAt,
          data: { object: shown },
        },
      ]);
      expect(shown).toMatchObject({ status: 'completed', carrier: 'gls', delivered_at: deliveredAt });
      expect(await feed('shipment')).toEqual([
        ['shipment.created', shipment!['id']],
        ['shipment.delivered', shipment!['id']],
      ]);
    });

    it('announces a shipment the warehouse cancels as GET shows it, and nothing when the cancellation is refused', async () => {
      const first = await place([{ sku: 'TEE-S', quantity: 1 }]);
      await approveOrder(t, shop.brand, first['id'] as number);
      const [open] = await shipmentsOf(first['id']);
      const second = await place([{ sku: 'TEE-M', quantity: 1 }]);
      await approveOrder(t, shop.brand, second['id'] as number);
      const [toDeliver] = await shipmentsOf(second['id']);
      const deliver = await post('/3pl/shipments/deliver', deliveryNote(toDeliver!, [{ sku: 'TEE-M', quantity: 1 }]));
      expect(deliver.status).toBe(200);

      t.clock.advance(MINUTE);
      const cancelled = await post('/3pl/shipments/cancel', { shipment_number: open!['shipment_number'] });
      expect(cancelled.status).toBe(200);
      const cancelledAt = t.clock.now();
      const shown = await shownAsEvent(open!['id']);
      t.clock.advance(MINUTE);
      const again = await post('/3pl/shipments/cancel', { shipment_id: open!['id'] });
      expect(again.status).toBe(422);
      const completed = await post('/3pl/shipments/cancel', { shipment_id: toDeliver!['id'] });
      expect(completed.status).toBe(422);
      const unknown = await post('/3pl/shipments/cancel', { shipment_id: 999_999 });
      expect(unknown.status).toBe(422);

      expect(await eventsOfType('shipment.cancelled')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'shipment.cancelled',
          created_at: cancelledAt,
          data: { object: shown },
        },
      ]);
      expect(shown).toMatchObject({ status: 'cancelled', cancelled_at: cancelledAt });
    });

    it('announces every open shipment an order cancellation cancels, after order.cancelled, and nothing when it is refused', async () => {
      const placed = await place([
        { sku: 'TEE-S', quantity: 2 },
        { sku: 'TEE-M', quantity: 2 },
      ]);
      await approveOrder(t, shop.brand, placed['id'] as number, { create_shipment: false });
      const ship = async (lines: Body[]) => {
        const response = await post(`/v10/orders/${placed['id']}/shipments`, { lines });
        expect(response.status).toBe(201);
        return response.body.shipment as Body;
      };
      const a = await ship([{ sku: 'TEE-S', quantity: 1 }]);
      const b = await ship([{ sku: 'TEE-M', quantity: 1 }]);
      expect((await post('/3pl/shipments/cancel', { shipment_id: a['id'] })).status).toBe(200);

      t.clock.advance(MINUTE);
      const cancelled = await post(`/v10/orders/${placed['id']}/cancel`, {});
      expect(cancelled.status).toBe(200);

      expect((await feed('order', 'shipment')).slice(-2)).toEqual([
        ['order.cancelled', placed['id']],
        ['shipment.cancelled', b['id']],
      ]);
      const events = await eventsOfType('shipment.cancelled');
      expect(events.map((e) => ((e['data'] as Body)['object'] as Body)['id'])).toEqual([a['id'], b['id']]);
      expect(events[1]).toEqual({
        id: expect.stringMatching(/^evt_\d+$/),
        type: 'shipment.cancelled',
        created_at: t.clock.now(),
        data: { object: await shownAsEvent(b['id']) },
      });

      // A second order with a delivered shipment cannot be cancelled: nothing is announced.
      const other = await place([{ sku: 'TEE-S', quantity: 2 }]);
      await approveOrder(t, shop.brand, other['id'] as number, { create_shipment: false });
      const shipOther = async (sku: string) => {
        const response = await post(`/v10/orders/${other['id']}/shipments`, { lines: [{ sku, quantity: 1 }] });
        expect(response.status).toBe(201);
        return response.body.shipment as Body;
      };
      const done = await shipOther('TEE-S');
      await shipOther('TEE-S');
      expect((await post('/3pl/shipments/deliver', deliveryNote(done, [{ sku: 'TEE-S', quantity: 1 }]))).status).toBe(
        200,
      );
      const before = await feed('order', 'shipment');
      const refused = await post(`/v10/orders/${other['id']}/cancel`, {});
      expect(refused.status).toBe(422);
      expect(await feed('order', 'shipment')).toEqual(before);
      expect(before.slice(-2)).toEqual([
        ['shipment.delivered', done['id']],
        ['order.updated', other['id']],
      ]);
    });

    it('announces order.updated before the shipment.created of each partial shipment, as GET shows the order, and nothing for a refused one', async () => {
      const placed = await place([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'TEE-M', quantity: 2 },
      ]);
      await approveOrder(t, shop.brand, placed['id'] as number, { create_shipment: false });
      t.clock.advance(MINUTE);
      const first = await post(`/v10/orders/${placed['id']}/shipments`, { lines: [{ sku: 'TEE-S', quantity: 2 }] });
      expect(first.status).toBe(201);
      const afterFirst = await orderShownAsEvent(placed['id']);
      const firstAt = t.clock.now();
      t.clock.advance(MINUTE);
      const tooMany = await post(`/v10/orders/${placed['id']}/shipments`, { lines: [{ sku: 'TEE-S', quantity: 2 }] });
      expect(tooMany.status).toBe(422);
      const second = await post(`/v10/orders/${placed['id']}/shipments`, { lines: [{ sku: 'TEE-M', quantity: 2 }] });
      expect(second.status).toBe(201);
      const afterSecond = await orderShownAsEvent(placed['id']);

      expect(await feed('order', 'shipment')).toEqual([
        ['order.created', placed['id']],
        ['order.approved', placed['id']],
        ['order.updated', placed['id']],
        ['shipment.created', first.body.shipment.id],
        ['order.updated', placed['id']],
        ['shipment.created', second.body.shipment.id],
      ]);
      expect(await eventsOfType('order.updated')).toEqual([
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'order.updated',
          created_at: firstAt,
          data: { object: afterFirst },
        },
        {
          id: expect.stringMatching(/^evt_\d+$/),
          type: 'order.updated',
          created_at: t.clock.now(),
          data: { object: afterSecond },
        },
      ]);
      expect((afterFirst['lines'] as Body[]).map((l) => l['shipped_quantity'])).toEqual([2, 0]);
      expect(afterSecond).toMatchObject({ status: 'approved', updated_at: t.clock.now() });
      // One timeline entry per shipment on the order: the event's, kind shipment_created.
      expect(await timelineKinds(placed['id'])).toEqual([
        'created',
        'approved',
        'shipment_created',
        'shipment_created',
      ]);
    });

    it('announces order.updated after a 3PL delivery (and the invoice it drafts) and after a 3PL cancellation, as GET shows the order; nothing for refused reports', async () => {
      await changeSettings(t, shop.brand, { invoicing: 'in_service' });
      const delivered = await place([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'CAP-ONE', quantity: 1 },
      ]);
      await approveOrder(t, shop.brand, delivered['id'] as number);
      const [toDeliver] = await shipmentsOf(delivered['id']);
      const cancelled = await place([{ sku: 'TEE-M', quantity: 2 }]);
      await approveOrder(t, shop.brand, cancelled['id'] as number);
      const [toCancel] = await shipmentsOf(cancelled['id']);
      const before = await feed('order', 'shipment', 'invoice');

      t.clock.advance(MINUTE);
      const wrongType = await post(
        '/3pl/shipments/deliver',
        deliveryNote(toDeliver!, [{ sku: 'TEE-S', quantity: 1 }], { order_type: 'b2c' }),
      );
      expect(wrongType.status).toBe(422);
      const unknown = await post('/3pl/shipments/cancel', { shipment_id: 999_999 });
      expect(unknown.status).toBe(422);
      expect(await feed('order', 'shipment', 'invoice')).toEqual(before);

      // Two of the three TEE-S arrive: one goes back to the order's open quantity.
      const delivery = await post(
        '/3pl/shipments/deliver',
        deliveryNote(toDeliver!, [
          { sku: 'TEE-S', quantity: 2 },
          { sku: 'CAP-ONE', quantity: 1 },
        ]),
      );
      expect(delivery.status).toBe(200);
      const afterDelivery = await orderShownAsEvent(delivered['id']);
      const deliveredAt = t.clock.now();
      const [invoice] = (await getOk(t, shop.brand, '/v10/invoices'))['invoices'] as Body[];
      t.clock.advance(MINUTE);
      expect((await post('/3pl/shipments/cancel', { shipment_id: toCancel!['id'] })).status).toBe(200);
      const afterCancel = await orderShownAsEvent(cancelled['id']);
      t.clock.advance(MINUTE);
      expect((await post('/3pl/shipments/cancel', { shipment_id: toCancel!['id'] })).status).toBe(422);

      expect((await feed('order', 'shipment', 'invoice')).slice(before.length)).toEqual([
        ['shipment.delivered', toDeliver!['id']],
        ['invoice.created', invoice!['id']],
        ['order.updated', delivered['id']],
        ['shipment.cancelled', toCancel!['id']],
        ['order.updated', cancelled['id']],
      ]);
      const event = (object: Body, at: string) => ({
        id: expect.stringMatching(/^evt_\d+$/),
        type: 'order.updated',
        created_at: at,
        data: { object },
      });
      expect(await eventsOfType('order.updated')).toEqual([
        event(afterDelivery, deliveredAt),
        event(afterCancel, new Date(Date.parse(deliveredAt) + MINUTE).toISOString()),
      ]);
      expect(
        (afterDelivery['lines'] as Body[]).map((l) => [
          l['shipped_quantity'],
          l['delivered_quantity'],
          l['invoiced_quantity'],
        ]),
      ).toEqual([
        [2, 2, 2],
        [1, 1, 1],
      ]);
      expect((afterCancel['lines'] as Body[]).map((l) => l['shipped_quantity'])).toEqual([0]);
      // Each change has one entry on the order's timeline, the event's.
      expect(await timelineKinds(delivered['id'])).toEqual(['created', 'approved', 'shipment_created', 'delivered']);
      expect(await timelineKinds(cancelled['id'])).toEqual([
        'created',
        'approved',
        'shipment_created',
        'shipment_cancelled',
      ]);
    });

    it('announces no order.updated where order.approved or order.cancelled already carries the order as saved', async () => {
      const placed = await place([
        { sku: 'TEE-S', quantity: 2 },
        { sku: 'TEE-M', quantity: 1 },
      ]);
      await approveOrder(t, shop.brand, placed['id'] as number);
      const approved = await orderShownAsEvent(placed['id']);
      t.clock.advance(MINUTE);
      expect((await post(`/v10/orders/${placed['id']}/cancel`, {})).status).toBe(200);
      const cancelled = await orderShownAsEvent(placed['id']);

      expect(await eventsOfType('order.updated')).toEqual([]);
      const [approvedEvent] = await eventsOfType('order.approved');
      const [cancelledEvent] = await eventsOfType('order.cancelled');
      // The approval's shipment and the cancellation's released shipment are in their objects.
      expect((approvedEvent!['data'] as Body)['object']).toEqual(approved);
      expect((cancelledEvent!['data'] as Body)['object']).toEqual(cancelled);
      expect((approved['lines'] as Body[]).map((l) => l['shipped_quantity'])).toEqual([2, 1]);
      expect((cancelled['lines'] as Body[]).map((l) => l['shipped_quantity'])).toEqual([0, 0]);
    });

    it('announces nothing of a 3PL delivery or cancellation that rolls back at commit, and the change once it commits', async () => {
      const placed = await place([{ sku: 'TEE-S', quantity: 2 }]);
      await approveOrder(t, shop.brand, placed['id'] as number);
      const [shipment] = await shipmentsOf(placed['id']);
      const before = await feed('order', 'shipment', 'invoice');
      const shownBefore = await orderShownAsEvent(placed['id']);
      const failing = storageFailingBeforeCommit(t.storage);
      const server = await listenOnLoopback(buildApp(failing.storage, t.clock));
      try {
        const viaFailing = (path: string, body: Body) => request(server).post(path).set(shop.brand.headers).send(body);
        t.clock.advance(MINUTE);
        failing.failNext('shipments');
        const delivery = deliveryNote(shipment!, [{ sku: 'TEE-S', quantity: 2 }]);
        expect((await viaFailing('/3pl/shipments/deliver', delivery)).status).toBe(500);
        failing.failNext('shipments');
        expect((await viaFailing('/3pl/shipments/cancel', { shipment_id: shipment!['id'] })).status).toBe(500);

        expect(await feed('order', 'shipment', 'invoice')).toEqual(before);
        expect(await orderShownAsEvent(placed['id'])).toEqual(shownBefore);
        expect((await viaFailing('/3pl/shipments/deliver', delivery)).status).toBe(200);
      } finally {
        await closeServer(server);
      }
      expect((await feed('order', 'shipment', 'invoice')).slice(before.length)).toEqual([
        ['shipment.delivered', shipment!['id']],
        ['order.updated', placed['id']],
      ]);
    });
  });
}
