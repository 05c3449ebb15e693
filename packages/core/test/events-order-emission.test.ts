import { approveOrder, cancelOrder, DomainEvent, listEvents, pruneEvents } from '../src';
import { customer, errorOf, product, setUpShop, variant } from './orders-shop.support';

type Shop = Awaited<ReturnType<typeof setUpShop>>;

type OrderEvent = DomainEvent<'order.created' | 'order.approved' | 'order.cancelled' | 'order.archived'>;

/** The brand's order events, oldest first (stock moves announce `inventory.changed` beside them). */
const eventsOf = async (shop: Shop): Promise<OrderEvent[]> =>
  (await listEvents(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } })).page.items.filter(
    (event): event is OrderEvent => event.type.startsWith('order.'),
  );

async function shopWithStock() {
  const shop = await setUpShop();
  await shop.products([product('TEE', { variants: [variant('TEE-M', 5)] })]);
  await shop.customers([customer('C-1')]);
  return shop;
}

describe('order events', () => {
  it('announces a placed order with the order as saved, at the instant it was placed', async () => {
    const shop = await shopWithStock();
    const { order } = await shop.place(await shop.channel('b2b'), {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity: 2 }],
    });

    const events = await eventsOf(shop);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'order.created',
        object: order,
        createdAt: shop.clock.now(),
      },
    ]);
    expect(events[0]!.object).toEqual((await shop.readOrder(order.id)).order);
  });

  it('announces nothing for a refused order', async () => {
    const shop = await shopWithStock();
    const refused = await errorOf(
      shop.place(await shop.channel('b2b'), { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 6 }] }),
    );
    expect(refused.code).toBe('validation_failed');
    expect(await eventsOf(shop)).toEqual([]);
  });

  it('announces an order placed on a channel that approves at once as created, then approved', async () => {
    const shop = await shopWithStock();
    const { order } = await shop.place(await shop.channel('b2b', { autoApprove: true }), {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });

    const events = await eventsOf(shop);
    expect(events.map((e) => [e.type, e.object.status])).toEqual([
      ['order.created', 'draft'],
      ['order.approved', 'approved'],
    ]);
    expect(events[1]!.object).toEqual(order);
  });

  it('announces approval and cancellation with the order as each left it, and not a refused cancellation', async () => {
    const shop = await shopWithStock();
    const { order } = await shop.place(await shop.channel('b2b'), {
      customerNumber: 'C-1',
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });
    shop.clock.advance(60_000);
    const approved = await approveOrder(shop.deps, {
      brandId: shop.brand.id,
      userId: shop.user.id,
      orderId: order.id,
      createShipment: false,
    });
    shop.clock.advance(60_000);
    const cancelled = await cancelOrder(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, orderId: order.id });
    const again = await errorOf(
      cancelOrder(shop.deps, { brandId: shop.brand.id, userId: shop.user.id, orderId: order.id }),
    );
    expect(again.code).toBe('invalid_state_transition');

    const events = await eventsOf(shop);
    expect(events.map((e) => e.type)).toEqual(['order.created', 'order.approved', 'order.cancelled']);
    expect(events[1]!.object).toEqual(approved.order);
    expect(events[2]!.object).toEqual(cancelled);
    expect(events[2]!.createdAt).toBe(cancelled.cancelledAt);
  });
});

describe('event retention', () => {
  it(`keeps events for ${30} days and deletes older ones`, async () => {
    const shop = await shopWithStock();
    const b2b = await shop.channel('b2b');
    await shop.place(b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 1 }] });
    shop.clock.advance(2 * 24 * 60 * 60 * 1000);
    await shop.place(b2b, { customerNumber: 'C-1', lines: [{ sku: 'TEE-M', quantity: 1 }] });
    const [older, newer] = await eventsOf(shop);
    // Everything announced at the first order's instant expires with it (its stock moves, the seeding).
    const all = (await listEvents(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } })).page.items;
    const expiring = all.filter((e) => e.createdAt <= older!.createdAt).length;

    shop.clock.advance(28 * 24 * 60 * 60 * 1000);
    expect(await pruneEvents(shop.deps)).toBe(0);
    shop.clock.advance(1);
    expect(await pruneEvents(shop.deps)).toBe(expiring);
    expect(expiring).toBeLessThan(all.length);
    expect(await eventsOf(shop)).toEqual([newer]);
    expect(older!.createdAt < newer!.createdAt).toBe(true);
  });
});
