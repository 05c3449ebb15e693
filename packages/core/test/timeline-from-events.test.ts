import {
  DocumentEventType,
  DocumentType,
  EmittedEventType,
  EVENT_TYPES,
  NewDomainEvent,
  Repositories,
  TimelineKind,
  approveOrder,
  cancelOrder,
  listEvents,
  recordEvents,
} from '../src';
import { customer, product, setUpShop, variant } from './orders-shop.support';

type Shop = Awaited<ReturnType<typeof setUpShop>>;

/**
 * Every event type of a document, with the document and kind its timeline entry must have
 * (`order.updated` names its kind in its note: the one given here, see `noteOf`).
 */
const DOCUMENT_EVENTS: { [K in DocumentEventType]: { documentType: DocumentType; kind: TimelineKind } } = {
  'order.created': { documentType: 'order', kind: 'created' },
  'order.updated': { documentType: 'order', kind: 'regulated' },
  'order.approved': { documentType: 'order', kind: 'approved' },
  'order.cancelled': { documentType: 'order', kind: 'cancelled' },
  'order.archived': { documentType: 'order', kind: 'archived' },
  'shipment.created': { documentType: 'shipment', kind: 'created' },
  'shipment.delivered': { documentType: 'shipment', kind: 'delivered' },
  'shipment.cancelled': { documentType: 'shipment', kind: 'cancelled' },
  'invoice.created': { documentType: 'invoice', kind: 'created' },
  'invoice.booked': { documentType: 'invoice', kind: 'booked' },
  'credit_note.created': { documentType: 'credit_note', kind: 'created' },
  'credit_note.booked': { documentType: 'credit_note', kind: 'booked' },
  'return.created': { documentType: 'return', kind: 'created' },
  'return.updated': { documentType: 'return', kind: 'updated' },
  'return.approved': { documentType: 'return', kind: 'approved' },
  'return.received': { documentType: 'return', kind: 'received' },
  'return.credited': { documentType: 'return', kind: 'credited' },
  'production_order.approved': { documentType: 'production_order', kind: 'approved' },
  'production_order.closed': { documentType: 'production_order', kind: 'closed' },
  'delivery_note.received': { documentType: 'delivery_note', kind: 'received' },
};
const DOCUMENT_EVENT_TYPES = Object.keys(DOCUMENT_EVENTS) as DocumentEventType[];
type OtherEventType = Exclude<EmittedEventType, DocumentEventType>;
const OTHER_EVENT_TYPES = EVENT_TYPES.filter((type) => !Object.hasOwn(DOCUMENT_EVENTS, type)) as OtherEventType[];
const ALL_DOCUMENT_TYPES: DocumentType[] = [
  'order',
  'shipment',
  'invoice',
  'credit_note',
  'accounting_entry',
  'return',
  'production_order',
  'delivery_note',
];

/** Stands in for the saved resource of any event type: the timeline reads only its id. */
const objectOf = (brandId: number, id: number): never => ({ id, brandId }) as never;

/** A document event of `type` with its timeline note; `order.updated` names the kind of `DOCUMENT_EVENTS`. */
const eventOf = (type: DocumentEventType, object: never, note: string, userId: number | null): NewDomainEvent =>
  ({
    type,
    object,
    timeline: type === 'order.updated' ? { kind: DOCUMENT_EVENTS[type].kind, note, userId } : { note, userId },
  }) as NewDomainEvent;

const timelineOf = (shop: Shop, documentType: DocumentType, documentId: number) =>
  shop.deps.uow.read((r) => r.timeline.eventsOf(shop.brand.id, documentType, documentId));

/** Every timeline entry of the brand on any document type with one of the ids. */
async function entriesOn(shop: Shop, ids: number[]) {
  const all = await Promise.all(
    ALL_DOCUMENT_TYPES.flatMap((documentType) => ids.map((id) => timelineOf(shop, documentType, id))),
  );
  return all.flat();
}

const eventsOf = async (shop: Shop) =>
  (await listEvents(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } })).page.items;

describe('the timeline, written from the domain events', () => {
  it('covers the document event types exactly: every type of a document, and only those', () => {
    // A type's resource is a DocumentType exactly when it has a timeline entry.
    for (const type of EVENT_TYPES) {
      const resource = type.slice(0, type.indexOf('.')) as DocumentType;
      expect([type, Object.hasOwn(DOCUMENT_EVENTS, type)]).toEqual([type, ALL_DOCUMENT_TYPES.includes(resource)]);
    }
    expect(OTHER_EVENT_TYPES.sort()).toEqual([
      'alert.created',
      'alert.resolved',
      'bulk_operation.finished',
      'customer.created',
      'customer.deleted',
      'customer.updated',
      'inventory.changed',
      'product.created',
      'product.deleted',
      'product.updated',
      'supplier.deleted',
    ]);
  });

  it.each(DOCUMENT_EVENT_TYPES)(
    'writes one entry of %s on its document, at the event instant, with its note and user',
    async (type) => {
      const shop = await setUpShop();
      shop.clock.advance(90_000);
      const at = shop.clock.now();
      const documentId = 4711;
      const event = eventOf(type, objectOf(shop.brand.id, documentId), `note of ${type}`, shop.user.id);

      await shop.deps.uow.run((tx) => recordEvents(tx, shop.brand.id, at, [event]));
      const [recorded] = await eventsOf(shop);

      const { documentType, kind } = DOCUMENT_EVENTS[type];
      const entries = await entriesOn(shop, [documentId]);
      expect(entries).toEqual([
        {
          id: expect.any(Number),
          brandId: shop.brand.id,
          documentType,
          documentId,
          kind,
          note: `note of ${type}`,
          systemId: null,
          userId: shop.user.id,
          createdAt: recorded!.createdAt,
        },
      ]);
      expect(recorded!.createdAt).toBe(at);
      // The note is the timeline's: the outbox keeps the type and the object only.
      expect(await eventsOf(shop)).toEqual([
        { id: recorded!.id, brandId: shop.brand.id, type, object: event.object, createdAt: at },
      ]);
    },
  );

  it('keeps a null note and an unknown user as the event carries them, one entry per event in order', async () => {
    const shop = await setUpShop();
    const at = shop.clock.now();
    await shop.deps.uow.run((tx) =>
      recordEvents(tx, shop.brand.id, at, [
        { type: 'order.created', object: objectOf(shop.brand.id, 7), timeline: { note: 'placed', userId: null } },
        { type: 'order.approved', object: objectOf(shop.brand.id, 7), timeline: { note: null, userId: 3 } },
        { type: 'shipment.created', object: objectOf(shop.brand.id, 7), timeline: { note: 'shipped', userId: 3 } },
      ]),
    );

    expect((await timelineOf(shop, 'order', 7)).map((e) => [e.kind, e.note, e.userId, e.createdAt])).toEqual([
      ['created', 'placed', null, at],
      ['approved', null, 3, at],
    ]);
    expect((await timelineOf(shop, 'shipment', 7)).map((e) => [e.kind, e.note, e.userId])).toEqual([
      ['created', 'shipped', 3],
    ]);
  });

  it('leaves no entry when the transaction that recorded the event rolls back', async () => {
    const shop = await setUpShop();
    await expect(
      shop.deps.uow.run(async (tx) => {
        await recordEvents(
          tx,
          shop.brand.id,
          shop.clock.now(),
          DOCUMENT_EVENT_TYPES.map((type) => eventOf(type, objectOf(shop.brand.id, 11), 'never', shop.user.id)),
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    expect(await entriesOn(shop, [11])).toEqual([]);
    expect(await eventsOf(shop)).toEqual([]);
  });

  it('writes no entry for events of no document, and needs no timeline to record them', async () => {
    const shop = await setUpShop();
    const before = await eventsOf(shop);
    const ids = OTHER_EVENT_TYPES.map((_, i) => 21 + i);
    const events = OTHER_EVENT_TYPES.map((type, i) => ({ type, object: objectOf(shop.brand.id, ids[i]!) }));

    // A transaction without a timeline repository: touching it would throw.
    await shop.deps.uow.run((tx) => {
      const withoutTimeline: Pick<
        Repositories,
        'ids' | 'events' | 'webhookEndpoints' | 'webhookDeliveries' | 'transaction'
      > = {
        ids: tx.ids,
        events: tx.events,
        webhookEndpoints: tx.webhookEndpoints,
        webhookDeliveries: tx.webhookDeliveries,
        transaction: tx.transaction,
      };
      return recordEvents(withoutTimeline, shop.brand.id, shop.clock.now(), events);
    });

    expect((await eventsOf(shop)).slice(before.length).map((e) => e.type)).toEqual(OTHER_EVENT_TYPES);
    expect((await eventsOf(shop)).length).toBe(before.length + OTHER_EVENT_TYPES.length);
    expect(await entriesOn(shop, ids)).toEqual([]);
  });

  it('gives each order event of a use case its timeline entry, between the entries no event announces', async () => {
    const shop = await setUpShop();
    await shop.products([product('TEE', { variants: [variant('TEE-M', 5)] })]);
    await shop.customers([customer('C-1')]);
    const { order } = await shop.place(await shop.channel('b2b'), {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity: 2 }],
    });
    shop.clock.advance(60_000);
    const { shipment } = await approveOrder(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      orderId: order.id,
    });
    shop.clock.advance(60_000);
    await cancelOrder(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, orderId: order.id });

    const events = (await eventsOf(shop)).filter((e) => e.type.startsWith('order.') || e.type.startsWith('shipment.'));
    expect(events.map((e) => [e.type, e.createdAt])).toEqual([
      ['order.created', '2026-06-01T09:00:00.000Z'],
      ['order.approved', '2026-06-01T09:01:00.000Z'],
      ['shipment.created', '2026-06-01T09:01:00.000Z'],
      ['order.cancelled', '2026-06-01T09:02:00.000Z'],
      ['shipment.cancelled', '2026-06-01T09:02:00.000Z'],
    ]);
    expect((await timelineOf(shop, 'order', order.id)).map((e) => [e.kind, e.note, e.userId, e.createdAt])).toEqual([
      ['created', 'placed on channel b2b channel', shop.user.id, '2026-06-01T09:00:00.000Z'],
      ['approved', 'approved', shop.user.id, '2026-06-01T09:01:00.000Z'],
      [
        'shipment_created',
        `shipment ${shipment!.shipmentNumber} with 2 pieces`,
        shop.user.id,
        '2026-06-01T09:01:00.000Z',
      ],
      ['cancelled', 'cancelled; reserved stock released', shop.user.id, '2026-06-01T09:02:00.000Z'],
    ]);
    expect(
      (await timelineOf(shop, 'shipment', shipment!.id)).map((e) => [e.kind, e.note, e.userId, e.createdAt]),
    ).toEqual([
      ['created', `2 pieces of order ${order.orderNumber}`, shop.user.id, '2026-06-01T09:01:00.000Z'],
      ['cancelled', `order ${order.orderNumber} was cancelled`, shop.user.id, '2026-06-01T09:02:00.000Z'],
    ]);
  });
});
