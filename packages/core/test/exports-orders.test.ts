import { ListRequest, Order, exportOrders, markOrdersExported, sortSignature } from '../src';
import { World, aWorld, anOrder, domainErrorOf, listOf, orderNow, stockOf, stockUp } from './orders-fixtures';

const tee = (quantity = 1) => ({ variantId: 11, sku: 'TEE-M', quantity, unitPrice: 1000 });

function exportFor(
  world: World,
  systemId: string,
  extra: Omit<Parameters<typeof exportOrders>[1], 'list' | 'systemId'> & { list?: ListRequest } = {},
) {
  return exportOrders(world.deps, { list: listOf(world), systemId, ...extra });
}
const idsOf = (result: { page: { items: Order[] } }) => result.page.items.map((o) => o.id);
const mark = (
  world: World,
  items: Array<{ orderId: number; systemId?: string; note?: string | null; regulateInventory?: boolean }>,
) =>
  markOrdersExported(world.deps, {
    brandId: world.brand.id,
    userId: 5,
    items: items.map((i) => ({
      orderId: i.orderId,
      systemId: i.systemId ?? 'erp',
      note: i.note ?? null,
      regulateInventory: i.regulateInventory ?? false,
    })),
  });

describe('exporting orders', () => {
  it('lists approved orders only, unless flags add drafts, cancelled and archived ones', async () => {
    const world = await aWorld();
    const approved = await anOrder(world, { lines: [tee()] });
    const draft = await anOrder(world, { status: 'draft', lines: [tee()] });
    const cancelled = await anOrder(world, { status: 'cancelled', lines: [tee()] });
    const archived = await anOrder(world, { status: 'archived', lines: [tee()] });

    expect(idsOf(await exportFor(world, 'erp'))).toEqual([approved.id]);
    expect(idsOf(await exportFor(world, 'erp', { includeNotApproved: true }))).toEqual([approved.id, draft.id]);
    expect(idsOf(await exportFor(world, 'erp', { includeCancelled: true, includeArchived: true }))).toEqual([
      approved.id,
      cancelled.id,
      archived.id,
    ]);
  });

  it('hides an order from the system that marked it, but not from other systems', async () => {
    const world = await aWorld();
    const first = await anOrder(world, { lines: [tee()] });
    const second = await anOrder(world, { lines: [tee()] });
    world.clock.advance(1000);
    await mark(world, [{ orderId: first.id, systemId: 'erp', note: 'imported as SO-1' }]);

    expect(idsOf(await exportFor(world, 'erp'))).toEqual([second.id]);
    const forWms = await exportFor(world, 'wms');
    expect(idsOf(forWms)).toEqual([first.id, second.id]);
    // Every document shows every system's marks.
    expect(forWms.exports.get(first.id)).toEqual([
      expect.objectContaining({
        systemId: 'erp',
        exportedAt: world.clock.now(),
        note: 'imported as SO-1',
        documentType: 'order',
        documentId: first.id,
      }),
    ]);
    expect(forWms.exports.get(second.id)).toEqual([]);
  });

  it('exports again what was marked after not_exported_since', async () => {
    const world = await aWorld();
    const order = await anOrder(world, { lines: [tee()] });
    const before = world.clock.now();
    world.clock.advance(60_000);
    await mark(world, [{ orderId: order.id }]);

    expect(idsOf(await exportFor(world, 'erp'))).toEqual([]);
    expect(idsOf(await exportFor(world, 'erp', { notExportedSince: before }))).toEqual([order.id]);
    // The instant of the mark itself still hides it; offsets are understood.
    expect(idsOf(await exportFor(world, 'erp', { notExportedSince: world.clock.now() }))).toEqual([]);
    expect(idsOf(await exportFor(world, 'erp', { notExportedSince: '2026-06-01T10:00:30+02:00' }))).toEqual([order.id]);
  });

  it('refuses a blank or over-long system_id and a not_exported_since that is not a datetime, naming the parameters', async () => {
    const world = await aWorld();
    const blank = await domainErrorOf(exportFor(world, ' ', { notExportedSince: 'yesterday' }));
    expect(blank.code).toBe('validation_failed');
    expect(blank.violations.map((v) => v.pointer)).toEqual(['/system_id', '/not_exported_since']);
    const long = await domainErrorOf(exportFor(world, 'x'.repeat(101)));
    expect(long.violations.map((v) => v.pointer)).toEqual(['/system_id']);
    const impossible = await domainErrorOf(exportFor(world, 'erp', { notExportedSince: '2026-02-30T00:00:00Z' }));
    expect(impossible.violations.map((v) => v.pointer)).toEqual(['/not_exported_since']);
  });

  it('walks by cursor only, with lines when included', async () => {
    const world = await aWorld();
    const first = await anOrder(world, { lines: [tee(2)] });
    const second = await anOrder(world, { lines: [tee(3)] });

    const paged = await domainErrorOf(exportFor(world, 'erp', { list: listOf(world, { page: '1' }) }));
    expect(paged).toMatchObject({ code: 'invalid_list_query', violations: [{ pointer: '/page' }] });

    const one = await exportFor(world, 'erp', { list: listOf(world, { limit: '1', includes: ['lines'] }) });
    expect(idsOf(one)).toEqual([first.id]);
    expect(one.page).toMatchObject({ hasMore: true, total: null });
    expect(one.page.items[0]!.lines.map((l) => l.quantity)).toEqual([2]);
    const cursor = { resource: 'orders_export', sort: sortSignature(one.query.sort), values: one.page.next!.values };
    const two = await exportFor(world, 'erp', { list: { ...listOf(world, { limit: '1', cursor: 'signed' }), cursor } });
    expect(idsOf(two)).toEqual([second.id]);
    expect(two.page.items[0]!.lines).toEqual([]);
    expect(two.page.hasMore).toBe(false);
  });
});

describe('marking orders exported', () => {
  it('regulates the remaining pieces and archives the order with regulate_inventory: In stock 10 / Available 9 become 9 / 9', async () => {
    const world = await aWorld();
    await stockUp(world, 11, 10);
    const order = await anOrder(world, { lines: [tee(1)] });
    expect(await stockOf(world, 11)).toEqual({ inStock: 10, available: 9 });

    const [marked] = await mark(world, [{ orderId: order.id, regulateInventory: true, note: 'SO-77' }]);

    expect(marked).toMatchObject({ id: order.id, status: 'archived', archivedAt: world.clock.now() });
    expect(await stockOf(world, 11)).toEqual({ inStock: 9, available: 9 });
    const after = await orderNow(world, order.id);
    expect(after).toMatchObject({
      status: 'archived',
      lines: [expect.objectContaining({ regulatedQuantity: 1, reservations: [] })],
    });
    const movements = await world.uow.read((r) => r.stock.movements(world.brand.id, 11, 1));
    expect(movements[0]).toMatchObject({
      reason: 'order_regulated',
      inStockDelta: -1,
      reservedDelta: -1,
      documentType: 'order',
      documentId: order.id,
      userId: 5,
    });
    const timeline = await world.uow.read((r) => r.timeline.eventsOf(world.brand.id, 'order', order.id));
    expect(timeline.map((e) => [e.kind, e.note, e.systemId])).toEqual([
      ['exported', 'SO-77', 'erp'],
      ['regulated', expect.stringContaining('1 piece'), null],
      ['archived', expect.any(String), null],
    ]);
  });

  it('leaves order and stock as they are with regulate_inventory false', async () => {
    const world = await aWorld();
    await stockUp(world, 11, 10);
    const order = await anOrder(world, { lines: [tee(1)] });
    const [marked] = await mark(world, [{ orderId: order.id, regulateInventory: false }]);
    expect(marked!.status).toBe('approved');
    expect(await stockOf(world, 11)).toEqual({ inStock: 10, available: 9 });
    expect(await orderNow(world, order.id)).toEqual(order);
  });

  it('never regulates twice: marking again with regulate_inventory only moves the mark', async () => {
    const world = await aWorld();
    await stockUp(world, 11, 10);
    const order = await anOrder(world, { lines: [tee(1)] });
    await mark(world, [{ orderId: order.id, regulateInventory: true }]);
    world.clock.advance(5000);
    await mark(world, [{ orderId: order.id, regulateInventory: true, note: 'again' }]);

    expect(await stockOf(world, 11)).toEqual({ inStock: 9, available: 9 });
    const marks = await world.uow.read((r) => r.exportMarks.marksOf(world.brand.id, 'order', [order.id]));
    expect(marks).toEqual([expect.objectContaining({ systemId: 'erp', exportedAt: world.clock.now(), note: 'again' })]);
    const timeline = await world.uow.read((r) => r.timeline.eventsOf(world.brand.id, 'order', order.id));
    expect(timeline.map((e) => e.kind)).toEqual(['exported', 'regulated', 'archived', 'exported']);
  });

  it('only marks cancelled and archived orders, even with regulate_inventory', async () => {
    const world = await aWorld();
    await stockUp(world, 11, 10);
    const cancelled = await anOrder(world, { status: 'cancelled', lines: [{ ...tee(2), reserved: 0 }] });
    const archived = await anOrder(world, { status: 'archived', lines: [{ ...tee(1), reserved: 0 }] });
    const marked = await mark(world, [
      { orderId: cancelled.id, regulateInventory: true },
      { orderId: archived.id, regulateInventory: true },
    ]);
    expect(marked.map((o) => o.status)).toEqual(['cancelled', 'archived']);
    expect(await stockOf(world, 11)).toEqual({ inStock: 10, available: 10 });
    expect(idsOf(await exportFor(world, 'erp', { includeCancelled: true, includeArchived: true }))).toEqual([]);
  });

  it('refuses regulate_inventory when the brand invoices in the service, and marks nothing', async () => {
    const world = await aWorld({ invoicing: 'in_service' });
    await stockUp(world, 11, 10);
    const order = await anOrder(world, { lines: [tee(1)] });
    const other = await anOrder(world, { lines: [tee(1)] });
    const error = await domainErrorOf(
      mark(world, [{ orderId: other.id }, { orderId: order.id, regulateInventory: true }]),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.violations).toEqual([
      { pointer: '/orders/1/regulate_inventory', detail: expect.stringContaining('must be false') },
    ]);
    expect(idsOf(await exportFor(world, 'erp'))).toEqual([order.id, other.id]);
    expect(await stockOf(world, 11)).toEqual({ inStock: 10, available: 8 });
  });

  it('refuses regulate_inventory on a draft order as a state problem naming the item', async () => {
    const world = await aWorld();
    const draft = await anOrder(world, { status: 'draft', lines: [tee(1)] });
    const error = await domainErrorOf(mark(world, [{ orderId: draft.id, regulateInventory: true }]));
    expect(error.code).toBe('invalid_state_transition');
    expect(error.violations.map((v) => v.pointer)).toEqual(['/orders/0/regulate_inventory']);
    expect((await orderNow(world, draft.id)).status).toBe('draft');
    // Without regulating, a draft is simply marked.
    await mark(world, [{ orderId: draft.id }]);
    expect(idsOf(await exportFor(world, 'erp', { includeNotApproved: true }))).toEqual([]);
  });

  it("refuses an unknown or another brand's order id, naming it, and marks none of the call", async () => {
    const world = await aWorld();
    const other = await aWorld({ uow: world.uow, clock: world.clock, brandName: 'South Knits' });
    const ours = await anOrder(world, { lines: [tee()] });
    const theirs = await anOrder(other, { lines: [tee()] });

    const error = await domainErrorOf(mark(world, [{ orderId: ours.id }, { orderId: theirs.id }, { orderId: 9999 }]));
    expect(error.code).toBe('validation_failed');
    expect(error.violations).toEqual([
      { pointer: '/orders/1/order_id', detail: expect.stringContaining(`${theirs.id} is not an order of this brand`) },
      { pointer: '/orders/2/order_id', detail: expect.stringContaining('9999') },
    ]);
    expect(idsOf(await exportFor(world, 'erp'))).toEqual([ours.id]);
    expect(idsOf(await exportFor(other, 'erp'))).toEqual([theirs.id]);
  });

  it('takes at most 10 orders per call and at least one', async () => {
    const world = await aWorld();
    const order = await anOrder(world, { lines: [tee()] });
    const eleven = Array.from({ length: 11 }, () => ({ orderId: order.id }));
    expect((await domainErrorOf(mark(world, eleven))).violations).toEqual([
      { pointer: '/orders', detail: expect.stringContaining('at most 10') },
    ]);
    expect((await domainErrorOf(mark(world, []))).violations.map((v) => v.pointer)).toEqual(['/orders']);
    const ten = await mark(world, eleven.slice(1));
    expect(ten.map((o) => o.id)).toEqual([order.id]);
  });

  it('refuses a blank system_id in an item', async () => {
    const world = await aWorld();
    const order = await anOrder(world, { lines: [tee()] });
    const error = await domainErrorOf(mark(world, [{ orderId: order.id, systemId: '' }]));
    expect(error.violations.map((v) => v.pointer)).toEqual(['/orders/0/system_id']);
  });
});
