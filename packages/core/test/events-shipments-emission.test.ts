import {
  DeliveredColli,
  DomainEvent,
  Repositories,
  UnitOfWork,
  approveOrder,
  cancelOrder,
  cancelShipment,
  createPartialShipment,
  deliverShipment,
  getShipment,
  listEvents,
} from '../src';
import { customer, errorOf, product, setUpShop, variant } from './orders-shop.support';

type Shop = Awaited<ReturnType<typeof setUpShop>>;

type ShipmentEvent = DomainEvent<'shipment.created' | 'shipment.delivered' | 'shipment.cancelled'>;
type OrderOrShipmentEvent = DomainEvent<
  'order.created' | 'order.updated' | 'order.approved' | 'order.cancelled' | 'order.archived' | ShipmentEvent['type']
>;

/** Every event of the brand, oldest first (the tests stay well within one page). */
async function allEvents(shop: Shop): Promise<DomainEvent[]> {
  const { page } = await listEvents(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } });
  expect(page.hasMore).toBe(false);
  return page.items;
}

/** The brand's shipment events, oldest first (other modules announce their own changes beside them). */
const shipmentEvents = async (shop: Shop): Promise<ShipmentEvent[]> =>
  (await allEvents(shop)).filter((event): event is ShipmentEvent => event.type.startsWith('shipment.'));

/** Types of the brand's events whose type starts with one of `prefixes`, oldest first. */
const typesOf = async (shop: Shop, prefixes: string[]): Promise<string[]> =>
  (await allEvents(shop)).map((e) => e.type).filter((type) => prefixes.some((prefix) => type.startsWith(prefix)));

const readShipment = async (shop: Shop, shipmentId: number) =>
  (await getShipment(shop.deps, { brandId: shop.brand.id, shipmentId })).shipment;

const MINUTE = 60_000;

/** A shop with TEE-S and TEE-M (10 each), customer C-1 and a B2B draft order of 3 × TEE-S and 2 × TEE-M with shipping. */
async function shopWithDraftOrder() {
  const shop = await setUpShop();
  await shop.products([product('TEE', { variants: [variant('TEE-S', 10), variant('TEE-M', 10)] })]);
  await shop.customers([customer('C-1')]);
  const b2b = await shop.channel('b2b');
  const { order } = await shop.place(b2b, {
    customerNumber: 'C-1',
    shippingCost: 995,
    lines: [
      { sku: 'TEE-S', quantity: 3 },
      { sku: 'TEE-M', quantity: 2 },
    ],
  });
  const approve = (createShipment?: boolean) =>
    approveOrder(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      orderId: order.id,
      ...(createShipment !== undefined ? { createShipment } : {}),
    });
  const ship = (lines: { sku: string; quantity: number }[]) =>
    createPartialShipment(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, orderId: order.id, lines });
  return { ...shop, b2b, order, approve, ship };
}

/** The shop above with its order approved and its one open shipment. */
async function shopWithOpenShipment() {
  const shop = await shopWithDraftOrder();
  shop.clock.advance(MINUTE);
  const { shipment } = await shop.approve();
  const deliver = (
    colli: DeliveredColli[],
    extra: { orderType?: 'b2b' | 'b2c'; uow?: UnitOfWork<Repositories> } = {},
  ) =>
    deliverShipment(
      { uow: extra.uow ?? shop.uow, clock: shop.clock },
      {
        brandId: shop.brand.id,
        userId: shop.user.id,
        delivery: {
          shipmentNumber: shipment!.shipmentNumber,
          orderType: extra.orderType ?? 'b2b',
          carrier: 'postnord',
          colli,
        },
      },
    );
  const cancel = () =>
    cancelShipment(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, shipmentId: shipment!.id });
  return { ...shop, shipment: shipment!, deliver, cancel };
}

const parcel = (lines: DeliveredColli['lines']): DeliveredColli => ({
  trackTrace: 'PN0001',
  trackTraceLink: null,
  ssccNumber: null,
  lines,
});

describe('shipment.created', () => {
  it('is announced by an approval that makes a shipment, after order.approved, with the shipment as saved', async () => {
    const shop = await shopWithDraftOrder();
    shop.clock.advance(MINUTE);
    const { order, shipment } = await shop.approve();

    expect(await typesOf(shop, ['order.', 'shipment.'])).toEqual([
      'order.created',
      'order.approved',
      'shipment.created',
    ]);
    const events = await shipmentEvents(shop);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'shipment.created',
        object: shipment,
        createdAt: shop.clock.now(),
      },
    ]);
    expect(events[0]!.object).toEqual(await readShipment(shop, shipment!.id));
    expect(events[0]!.object).toMatchObject({
      status: 'open',
      orderId: order.id,
      shippingCost: 995,
      lines: [
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'TEE-M', quantity: 2 },
      ],
    });
  });

  it('is not announced by an approval without a shipment, nor by a refused approval', async () => {
    const shop = await shopWithDraftOrder();
    await shop.approve(false);
    const again = await errorOf(shop.approve());
    expect(again.code).toBe('invalid_state_transition');
    expect(await typesOf(shop, ['order.', 'shipment.'])).toEqual(['order.created', 'order.approved']);
  });

  it('is announced by an order placed on a channel that approves at once, after order.created and order.approved', async () => {
    const shop = await setUpShop();
    await shop.products([product('TEE', { variants: [variant('TEE-M', 5)] })]);
    await shop.customers([customer('C-1')]);
    const { shipment } = await shop.place(await shop.channel('b2b', { autoApprove: true }), {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity: 2 }],
    });

    expect(await typesOf(shop, ['order.', 'shipment.'])).toEqual([
      'order.created',
      'order.approved',
      'shipment.created',
    ]);
    const [created] = await shipmentEvents(shop);
    expect(created!.object).toEqual(shipment);
    expect(created!.object).toEqual(await readShipment(shop, shipment!.id));
    expect(created!.createdAt).toBe(shipment!.createdAt);
  });

  it('is announced by each partial shipment with the shipment as saved, and not by a refused one', async () => {
    const shop = await shopWithDraftOrder();
    const onDraft = await errorOf(shop.ship([{ sku: 'TEE-S', quantity: 1 }]));
    expect(onDraft.code).toBe('invalid_state_transition');
    await shop.approve(false);

    shop.clock.advance(MINUTE);
    const first = await shop.ship([{ sku: 'TEE-S', quantity: 2 }]);
    shop.clock.advance(MINUTE);
    const second = await shop.ship([
      { sku: 'TEE-S', quantity: 1 },
      { sku: 'TEE-M', quantity: 2 },
    ]);
    const tooMany = await errorOf(shop.ship([{ sku: 'TEE-M', quantity: 1 }]));
    expect(tooMany.code).toBe('validation_failed');

    const events = await shipmentEvents(shop);
    expect(events.map((e) => [e.type, e.object.id, e.createdAt])).toEqual([
      ['shipment.created', first.id, first.createdAt],
      ['shipment.created', second.id, second.createdAt],
    ]);
    expect(events[0]!.object).toEqual(await readShipment(shop, first.id));
    expect(events[1]!.object).toEqual(await readShipment(shop, second.id));
    // The shipping cost travels on the first shipment only.
    expect(events.map((e) => e.object.shippingCost)).toEqual([995, null]);
  });
});

describe('shipment.delivered', () => {
  it('is announced once by the delivery with the completed shipment as saved', async () => {
    const shop = await shopWithOpenShipment();
    shop.clock.advance(MINUTE);
    const { shipment: view } = await shop.deliver([
      parcel([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'TEE-M', quantity: 1 },
      ]),
    ]);
    shop.clock.advance(MINUTE);
    const again = await errorOf(shop.deliver([parcel([{ sku: 'TEE-S', quantity: 1 }])]));
    expect(again.code).toBe('invalid_state_transition');

    const events = await shipmentEvents(shop);
    expect(events.map((e) => e.type)).toEqual(['shipment.created', 'shipment.delivered']);
    const delivered = events[1]!;
    expect(delivered.object).toEqual(view.shipment);
    expect(delivered.object).toEqual(await readShipment(shop, shop.shipment.id));
    expect(delivered.createdAt).toBe(view.shipment.deliveredAt);
    expect(delivered.createdAt).toBe(new Date(Date.parse(shop.clock.now()) - MINUTE).toISOString());
    expect(delivered.object).toMatchObject({
      status: 'completed',
      carrier: 'postnord',
      lines: [
        { sku: 'TEE-S', quantity: 3, deliveredQuantity: 3 },
        { sku: 'TEE-M', quantity: 2, deliveredQuantity: 1 },
      ],
    });
  });

  it('comes before the invoice the delivery drafts when the brand invoices in the service', async () => {
    const shop = await shopWithOpenShipment();
    await shop.settings({ invoicing: 'in_service' });
    const { invoice } = await shop.deliver([parcel([{ sku: 'TEE-S', quantity: 3 }])]);
    expect(invoice).not.toBeNull();
    expect(await typesOf(shop, ['shipment.', 'invoice.'])).toEqual([
      'shipment.created',
      'shipment.delivered',
      'invoice.created',
    ]);
  });

  it('is not announced by a refused delivery, nor by one whose transaction fails after the shipment was saved', async () => {
    const shop = await shopWithOpenShipment();
    const wrongType = await errorOf(shop.deliver([parcel([{ sku: 'TEE-S', quantity: 1 }])], { orderType: 'b2c' }));
    expect(wrongType.code).toBe('validation_failed');
    const tooMany = await errorOf(shop.deliver([parcel([{ sku: 'TEE-S', quantity: 4 }])]));
    expect(tooMany.code).toBe('validation_failed');

    // The order is saved after the shipment and its event: a failure there rolls all of it back.
    const failing: UnitOfWork<Repositories> = {
      run: (work) =>
        shop.uow.run((tx) =>
          work({
            ...tx,
            orders: {
              ...tx.orders,
              save: async () => {
                throw new Error('the disk is full');
              },
            },
          }),
        ),
      read: (work) => shop.uow.read(work),
    };
    await expect(shop.deliver([parcel([{ sku: 'TEE-S', quantity: 3 }])], { uow: failing })).rejects.toThrow(
      'the disk is full',
    );

    expect((await shipmentEvents(shop)).map((e) => e.type)).toEqual(['shipment.created']);
    expect((await readShipment(shop, shop.shipment.id)).status).toBe('open');
  });
});

describe('shipment.cancelled', () => {
  it('is announced by the warehouse cancelling a shipment, with the shipment as saved, and not by a refused cancellation', async () => {
    const shop = await shopWithOpenShipment();
    shop.clock.advance(MINUTE);
    const view = await shop.cancel();
    const again = await errorOf(shop.cancel());
    expect(again.code).toBe('invalid_state_transition');

    const events = await shipmentEvents(shop);
    expect(events.map((e) => e.type)).toEqual(['shipment.created', 'shipment.cancelled']);
    const cancelled = events[1]!;
    expect(cancelled.object).toEqual(view.shipment);
    expect(cancelled.object).toEqual(await readShipment(shop, shop.shipment.id));
    expect(cancelled.object.status).toBe('cancelled');
    expect(cancelled.createdAt).toBe(shop.clock.now());
    expect(cancelled.object.cancelledAt).toBe(shop.clock.now());
  });

  it('is not announced for a delivered shipment the warehouse tries to cancel', async () => {
    const shop = await shopWithOpenShipment();
    await shop.deliver([parcel([{ sku: 'TEE-S', quantity: 3 }])]);
    const refused = await errorOf(shop.cancel());
    expect(refused.code).toBe('invalid_state_transition');
    expect((await shipmentEvents(shop)).map((e) => e.type)).toEqual(['shipment.created', 'shipment.delivered']);
  });

  it('is announced for each open shipment an order cancellation cancels, after order.cancelled', async () => {
    const shop = await shopWithDraftOrder();
    await shop.approve(false);
    const first = await shop.ship([{ sku: 'TEE-S', quantity: 1 }]);
    const second = await shop.ship([{ sku: 'TEE-M', quantity: 1 }]);
    await cancelShipment(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, shipmentId: first.id });
    const third = await shop.ship([{ sku: 'TEE-S', quantity: 2 }]);
    shop.clock.advance(MINUTE);
    const cancelledOrder = await cancelOrder(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      orderId: shop.order.id,
    });

    const tail = (await allEvents(shop))
      .filter((e): e is OrderOrShipmentEvent => e.type.startsWith('order.') || e.type.startsWith('shipment.'))
      .slice(-3)
      .map((e) => [e.type, e.object.id]);
    expect(tail).toEqual([
      ['order.cancelled', cancelledOrder.id],
      ['shipment.cancelled', second.id],
      ['shipment.cancelled', third.id],
    ]);
    const events = (await shipmentEvents(shop)).filter((e) => e.type === 'shipment.cancelled');
    // The one the warehouse cancelled earlier, then the two the order's cancellation cancelled.
    expect(events.map((e) => e.object.id)).toEqual([first.id, second.id, third.id]);
    expect(events[1]!.object).toEqual(await readShipment(shop, second.id));
    expect(events[2]!.object).toEqual(await readShipment(shop, third.id));
    expect(events.slice(1).map((e) => e.createdAt)).toEqual([cancelledOrder.cancelledAt, cancelledOrder.cancelledAt]);
  });

  it('is not announced when the order cancellation is refused because a shipment was delivered', async () => {
    const shop = await shopWithDraftOrder();
    await shop.approve(false);
    const delivered = await shop.ship([{ sku: 'TEE-S', quantity: 1 }]);
    await shop.ship([{ sku: 'TEE-M', quantity: 1 }]);
    await deliverShipment(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      delivery: {
        shipmentNumber: delivered.shipmentNumber,
        orderType: 'b2b',
        carrier: 'gls',
        colli: [parcel([{ sku: 'TEE-S', quantity: 1 }])],
      },
    });
    const refused = await errorOf(
      cancelOrder(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, orderId: shop.order.id }),
    );
    expect(refused.code).toBe('invalid_state_transition');
    expect((await shipmentEvents(shop)).map((e) => e.type)).toEqual([
      'shipment.created',
      'shipment.created',
      'shipment.delivered',
    ]);
    // Two partial shipments and a delivery updated the order; nothing cancelled it.
    expect(await typesOf(shop, ['order.'])).toEqual([
      'order.created',
      'order.approved',
      'order.updated',
      'order.updated',
      'order.updated',
    ]);
  });
});

describe('order.updated', () => {
  const orderUpdates = async (shop: Shop) =>
    (await allEvents(shop)).filter((e): e is DomainEvent<'order.updated'> => e.type === 'order.updated');
  const orderTimeline = async (shop: Shop, orderId: number) =>
    (await shop.readOrder(orderId)).timeline.map((e) => [e.kind, e.note]);

  it('is announced by a partial shipment before its shipment.created, with the order as saved, and not by a refused one', async () => {
    const shop = await shopWithDraftOrder();
    await shop.approve(false);
    shop.clock.advance(MINUTE);
    const shipment = await shop.ship([{ sku: 'TEE-S', quantity: 2 }]);
    const tooMany = await errorOf(shop.ship([{ sku: 'TEE-S', quantity: 2 }]));
    expect(tooMany.code).toBe('validation_failed');

    expect((await allEvents(shop)).filter((e) => /^(order|shipment)\./.test(e.type)).map((e) => e.type)).toEqual([
      'order.created',
      'order.approved',
      'order.updated',
      'shipment.created',
    ]);
    const [updated] = await orderUpdates(shop);
    const { order } = await shop.readOrder(shop.order.id);
    expect(updated).toEqual({
      id: expect.any(Number),
      brandId: shop.brand.id,
      type: 'order.updated',
      object: order,
      createdAt: shop.clock.now(),
    });
    expect(order.lines.map((l) => l.shippedQuantity)).toEqual([2, 0]);
    expect(order.updatedAt).toBe(shop.clock.now());
    // Its timeline entry is the order's shipment_created, written once.
    expect((await orderTimeline(shop, shop.order.id)).slice(-1)).toEqual([
      ['shipment_created', `shipment ${shipment.shipmentNumber} with 2 pieces`],
    ]);
  });

  it('is announced by the warehouse cancelling a shipment, after shipment.cancelled, with its pieces open again', async () => {
    const shop = await shopWithOpenShipment();
    shop.clock.advance(MINUTE);
    await shop.cancel();

    expect((await allEvents(shop)).slice(-2).map((e) => e.type)).toEqual(['shipment.cancelled', 'order.updated']);
    const updates = await orderUpdates(shop);
    const { order } = await shop.readOrder(shop.order.id);
    expect(updates).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'order.updated',
        object: order,
        createdAt: shop.clock.now(),
      },
    ]);
    expect(order.lines.map((l) => l.shippedQuantity)).toEqual([0, 0]);
    expect((await orderTimeline(shop, shop.order.id)).slice(-1)).toEqual([
      [
        'shipment_cancelled',
        `shipment ${shop.shipment.shipmentNumber} cancelled by the warehouse: 5 pieces open again`,
      ],
    ]);
  });

  it('is announced by a delivery, after shipment.delivered and the invoice it drafts, with the order as saved', async () => {
    const shop = await shopWithOpenShipment();
    await shop.settings({ invoicing: 'in_service' });
    shop.clock.advance(MINUTE);
    await shop.deliver([
      parcel([
        { sku: 'TEE-S', quantity: 3 },
        { sku: 'TEE-M', quantity: 1 },
      ]),
    ]);

    expect((await allEvents(shop)).slice(-3).map((e) => e.type)).toEqual([
      'shipment.delivered',
      'invoice.created',
      'order.updated',
    ]);
    const [updated] = await orderUpdates(shop);
    const { order } = await shop.readOrder(shop.order.id);
    expect(updated!.object).toEqual(order);
    expect(updated!.createdAt).toBe(shop.clock.now());
    expect(order.lines.map((l) => [l.shippedQuantity, l.deliveredQuantity, l.invoicedQuantity])).toEqual([
      [3, 3, 3],
      [1, 1, 1],
    ]);
    expect((await orderTimeline(shop, shop.order.id)).filter(([kind]) => kind === 'delivered')).toEqual([
      ['delivered', `shipment ${shop.shipment.shipmentNumber}: 4 of 5 pieces delivered`],
    ]);
  });

  it('is not announced by a refused delivery or cancellation, by an approval (order.approved carries it) or by an order cancellation', async () => {
    const shop = await shopWithOpenShipment();
    const wrongType = await errorOf(shop.deliver([parcel([{ sku: 'TEE-S', quantity: 1 }])], { orderType: 'b2c' }));
    expect(wrongType.code).toBe('validation_failed');
    shop.clock.advance(MINUTE);
    await cancelOrder(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, orderId: shop.order.id });
    const refused = await errorOf(shop.cancel());
    expect(refused.code).toBe('invalid_state_transition');

    expect(await orderUpdates(shop)).toEqual([]);
    expect(await typesOf(shop, ['order.', 'shipment.'])).toEqual([
      'order.created',
      'order.approved',
      'shipment.created',
      'order.cancelled',
      'shipment.cancelled',
    ]);
  });
});
