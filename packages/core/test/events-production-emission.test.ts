import {
  DeliveryNote,
  DomainEvent,
  Repositories,
  UnitOfWork,
  approveProductionOrder,
  closeProductionOrder,
  createDeliveryNote,
  createProductionOrder,
  getProductionOrder,
  listEvents,
  receiveDeliveryNote,
  syncSuppliers,
} from '../src';
import { errorOf, product, setUpShop, variant, violationsOf } from './orders-shop.support';

type ProductionEvent = DomainEvent<'production_order.approved' | 'production_order.closed' | 'delivery_note.received'>;
type Receipt = Parameters<typeof receiveDeliveryNote>[1]['receipt'];

const MINUTE = 60_000;

async function setUp() {
  const shop = await setUpShop();
  await shop.products([
    product('TEE', { variants: [variant('TEE-S', 2), variant('TEE-M', 0)] }),
    product('CAP', { variants: [variant('CAP-ONE', 1)] }),
  ]);
  await syncSuppliers(shop.deps, {
    brandId: shop.brand.id,
    suppliers: [{ supplierNumber: 'SUP-1', name: 'Porto Mills', currency: 'EUR' }],
  });
  const at = { brandId: shop.brand.id, userId: shop.user.id };
  const create = () =>
    createProductionOrder(shop.deps, {
      ...at,
      productionOrder: {
        supplierNumber: 'SUP-1',
        lines: [
          { sku: 'TEE-S', quantity: 10, unitCost: 450 },
          { sku: 'TEE-M', quantity: 5 },
        ],
      },
    });
  const approve = (productionOrderId: number) => approveProductionOrder(shop.deps, { ...at, productionOrderId });
  const close = (productionOrderId: number) => closeProductionOrder(shop.deps, { ...at, productionOrderId });
  const announce = (productionOrderId: number) =>
    createDeliveryNote(shop.deps, {
      ...at,
      productionOrderId,
      deliveryNote: {
        meta: { truck: 'T1' },
        lines: [
          { sku: 'TEE-S', quantity: 6 },
          { sku: 'TEE-M', quantity: 4 },
        ],
      },
    });
  const receive = (receipt: Receipt, deps: Parameters<typeof receiveDeliveryNote>[0] = shop.deps) =>
    receiveDeliveryNote(deps, { ...at, receipt });
  const readOrder = async (productionOrderId: number) =>
    (await getProductionOrder(shop.deps, { brandId: shop.brand.id, productionOrderId })).productionOrder;
  const readNote = async (id: number): Promise<DeliveryNote> =>
    (await shop.uow.read((r) => r.deliveryNotes.findByIds(shop.brand.id, [id])))[0]!;
  /** The brand's production events, oldest first (receipts also announce `inventory.changed`). */
  const events = async (): Promise<ProductionEvent[]> =>
    (await listEvents(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } })).page.items.filter(
      (event): event is ProductionEvent =>
        event.type.startsWith('production_order.') || event.type.startsWith('delivery_note.'),
    );
  return { ...shop, create, approve, close, announce, receive, readOrder, readNote, events };
}

/** Storage whose timeline refuses to append: a use case failing after its event was written. */
function failingTimeline(uow: UnitOfWork): UnitOfWork {
  return {
    run: (work) =>
      uow.run((tx) =>
        work({
          ...tx,
          timeline: {
            ...tx.timeline,
            append: () => Promise.reject(new Error('timeline unavailable')),
          },
        } satisfies Repositories),
      ),
    read: (work) => uow.read(work),
  };
}

describe('production order events', () => {
  it('announces an approval with the order as read back afterwards, at the instant it was approved', async () => {
    const s = await setUp();
    const draft = await s.create();
    expect(await s.events()).toEqual([]);
    s.clock.advance(MINUTE);
    const approved = await s.approve(draft.id);

    const events = await s.events();
    expect(events).toEqual([
      {
        id: expect.any(Number),
        brandId: s.brand.id,
        type: 'production_order.approved',
        object: approved,
        createdAt: s.clock.now(),
      },
    ]);
    const read = await s.readOrder(draft.id);
    expect(events[0]!.object).toEqual(read);
    expect(read).toMatchObject({ status: 'open', approvedAt: s.clock.now() });
    expect(read.lines.map((l) => [l.sku, l.quantity])).toEqual([
      ['TEE-S', 10],
      ['TEE-M', 5],
    ]);
  });

  it('announces a closure with the order as read back afterwards, including what its receipts counted', async () => {
    const s = await setUp();
    const order = await s.approve((await s.create()).id);
    const { deliveryNote } = await s.announce(order.id);
    await s.receive({
      deliveryNoteNumber: deliveryNote.deliveryNoteNumber,
      lines: [{ sku: 'TEE-S', receivedQuantity: 6 }],
    });
    s.clock.advance(MINUTE);
    const closed = await s.close(order.id);

    const events = await s.events();
    expect(events.map((e) => e.type)).toEqual([
      'production_order.approved',
      'delivery_note.received',
      'production_order.closed',
    ]);
    const last = events[2]!;
    expect(last.object).toEqual(closed);
    expect(last.object).toEqual(await s.readOrder(order.id));
    expect(last.object).toMatchObject({ status: 'closed', closedAt: s.clock.now() });
    expect(last.object.lines.map((l) => [l.expectedQuantity, l.receivedQuantity])).toEqual([
      [6, 6],
      [4, 0],
    ]);
    expect(last.createdAt).toBe(s.clock.now());
  });

  it('announces nothing for refused approvals and closures', async () => {
    const s = await setUp();
    const draft = await s.create();
    expect((await errorOf(s.close(draft.id))).code).toBe('invalid_state_transition');
    expect((await errorOf(s.approve(draft.id + 1000))).code).toBe('not_found');
    expect(await s.events()).toEqual([]);

    await s.approve(draft.id);
    expect((await errorOf(s.approve(draft.id))).code).toBe('invalid_state_transition');
    await s.close(draft.id);
    expect((await errorOf(s.close(draft.id))).code).toBe('invalid_state_transition');
    expect((await errorOf(s.approve(draft.id))).code).toBe('invalid_state_transition');
    expect((await s.events()).map((e) => e.type)).toEqual(['production_order.approved', 'production_order.closed']);
  });

  it('announces nothing for an approval or closure that fails after its event was written', async () => {
    const s = await setUp();
    const draft = await s.create();
    const failing = { uow: failingTimeline(s.uow), clock: s.clock };
    await expect(
      approveProductionOrder(failing, { brandId: s.brand.id, userId: s.user.id, productionOrderId: draft.id }),
    ).rejects.toThrow('timeline unavailable');
    expect(await s.events()).toEqual([]);
    expect((await s.readOrder(draft.id)).status).toBe('draft');

    await s.approve(draft.id);
    await expect(
      closeProductionOrder(failing, { brandId: s.brand.id, userId: s.user.id, productionOrderId: draft.id }),
    ).rejects.toThrow('timeline unavailable');
    expect((await s.events()).map((e) => e.type)).toEqual(['production_order.approved']);
    expect((await s.readOrder(draft.id)).status).toBe('open');
  });
});

describe('delivery note events', () => {
  it('announces each receipt with the whole note as read back afterwards, the pieces adding up', async () => {
    const s = await setUp();
    const order = await s.approve((await s.create()).id);
    const { deliveryNote } = await s.announce(order.id);
    const number = deliveryNote.deliveryNoteNumber;

    s.clock.advance(MINUTE);
    const first = await s.receive({
      deliveryNoteNumber: number,
      meta: { dock: '3' },
      lines: [{ sku: 'TEE-S', receivedQuantity: 4 }],
    });
    const firstAt = s.clock.now();
    const afterFirst = await s.readNote(deliveryNote.id);
    s.clock.advance(MINUTE);
    const second = await s.receive({
      deliveryNoteNumber: number,
      lines: [
        { sku: 'TEE-S', receivedQuantity: 3 },
        { sku: 'TEE-M', receivedQuantity: 4 },
      ],
    });

    const received = (await s.events()).filter((e) => e.type === 'delivery_note.received');
    expect(received).toEqual([
      {
        id: expect.any(Number),
        brandId: s.brand.id,
        type: 'delivery_note.received',
        object: first.note,
        createdAt: firstAt,
      },
      {
        id: expect.any(Number),
        brandId: s.brand.id,
        type: 'delivery_note.received',
        object: second.note,
        createdAt: s.clock.now(),
      },
    ]);
    // The first receipt named one line, yet the note it announces has both, as reading it back shows.
    expect(received[0]!.object).toEqual(afterFirst);
    expect(received[0]!.object).toMatchObject({
      status: 'received',
      receivedAt: firstAt,
      meta: { truck: 'T1', dock: '3' },
      lines: [
        { sku: 'TEE-S', expectedQuantity: 6, receivedQuantity: 4 },
        { sku: 'TEE-M', expectedQuantity: 4, receivedQuantity: 0 },
      ],
    });
    expect(received[1]!.object).toEqual(await s.readNote(deliveryNote.id));
    expect(received[1]!.object.lines.map((l) => l.receivedQuantity)).toEqual([7, 4]);
    expect(received[1]!.object.meta).toEqual({ truck: 'T1', dock: '3' });
  });

  it('announces a receipt of no pieces too: the note became received', async () => {
    const s = await setUp();
    const order = await s.approve((await s.create()).id);
    const { deliveryNote } = await s.announce(order.id);
    s.clock.advance(MINUTE);
    await s.receive({
      deliveryNoteNumber: deliveryNote.deliveryNoteNumber,
      lines: [{ sku: 'TEE-M', receivedQuantity: 0 }],
    });

    const [event] = (await s.events()).filter((e) => e.type === 'delivery_note.received');
    expect(event?.object).toEqual(await s.readNote(deliveryNote.id));
    expect(event?.object).toMatchObject({ status: 'received', receivedAt: s.clock.now() });
  });

  it('announces nothing for refused receipts', async () => {
    const s = await setUp();
    const order = await s.approve((await s.create()).id);
    const { deliveryNote } = await s.announce(order.id);
    const number = deliveryNote.deliveryNoteNumber;
    const before = await s.events();

    expect(
      await violationsOf(
        s.receive({ deliveryNoteNumber: number + 100, lines: [{ sku: 'TEE-S', receivedQuantity: 1 }] }),
      ),
    ).toEqual({
      '/production_order_delivery_note/production_order_delivery_note_number':
        expect.stringContaining('does not exist'),
    });
    expect(
      await violationsOf(s.receive({ deliveryNoteNumber: number, lines: [{ sku: 'CAP-ONE', receivedQuantity: 1 }] })),
    ).toEqual({
      '/production_order_delivery_note/lines/0/sku': expect.stringContaining('is not on delivery note'),
    });
    expect(
      await violationsOf(
        s.receive({
          deliveryNoteNumber: number,
          lines: [
            { sku: 'TEE-S', receivedQuantity: 2 },
            { sku: 'TEE-M', receivedQuantity: -1 },
          ],
        }),
      ),
    ).toEqual({ '/production_order_delivery_note/lines/1/received_quantity': expect.any(String) });
    expect(await s.events()).toEqual(before);

    await s.close(order.id);
    const closedOrder = await s.events();
    expect(
      await violationsOf(s.receive({ deliveryNoteNumber: number, lines: [{ sku: 'TEE-S', receivedQuantity: 1 }] })),
    ).toEqual({
      '/production_order_delivery_note/production_order_delivery_note_number': expect.stringContaining('is closed'),
    });
    expect(await s.events()).toEqual(closedOrder);
    expect((await s.readNote(deliveryNote.id)).status).toBe('expected');
  });

  it('announces nothing for a receipt that fails after its event was written', async () => {
    const s = await setUp();
    const order = await s.approve((await s.create()).id);
    const { deliveryNote } = await s.announce(order.id);
    const before = await s.events();
    await expect(
      s.receive(
        { deliveryNoteNumber: deliveryNote.deliveryNoteNumber, lines: [{ sku: 'TEE-S', receivedQuantity: 2 }] },
        { uow: failingTimeline(s.uow), clock: s.clock },
      ),
    ).rejects.toThrow('timeline unavailable');
    expect(await s.events()).toEqual(before);
    expect(await s.readNote(deliveryNote.id)).toEqual(deliveryNote);
  });
});
