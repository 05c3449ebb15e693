import {
  CreateProductionOrderInput,
  approveProductionOrder,
  closeProductionOrder,
  createDeliveryNote,
  createProductionOrder,
  exportProductionOrders,
  getProductionOrder,
  listThirdPartyDeliveryNotes,
  markDocumentsExported,
  receiveDeliveryNote,
  syncSuppliers,
} from '../src';
import { errorOf, product, setUpShop, variant, violationsOf } from './orders-shop.support';

async function setUp() {
  const shop = await setUpShop();
  await shop.products([product('TEE', { variants: [variant('TEE-S', 2), variant('TEE-M', 0)] })]);
  await syncSuppliers(shop.deps, {
    brandId: shop.brand.id,
    suppliers: [
      { supplierNumber: 'SUP-1', name: 'Porto Mills', currency: 'EUR' },
      { supplierNumber: 'SUP-OFF', name: 'Gone', currency: 'EUR', active: false },
    ],
  });
  const at = { brandId: shop.brand.id, userId: shop.user.id };
  const create = (
    lines: CreateProductionOrderInput['lines'] = [
      { sku: 'TEE-S', quantity: 10, unitCost: 450 },
      { sku: 'TEE-M', quantity: 5 },
    ],
  ) => createProductionOrder(shop.deps, { ...at, productionOrder: { supplierNumber: 'SUP-1', lines } });
  const openOrder = async () => {
    const order = await create();
    return approveProductionOrder(shop.deps, { ...at, productionOrderId: order.id });
  };
  const announce = (productionOrderId: number, lines = [{ sku: 'TEE-S', quantity: 6 }]) =>
    createDeliveryNote(shop.deps, { ...at, productionOrderId, deliveryNote: { lines } });
  const receive = (
    deliveryNoteNumber: number,
    lines: Array<{ sku?: string; ean?: string; receivedQuantity: number }>,
    meta?: Record<string, string>,
  ) => receiveDeliveryNote(shop.deps, { ...at, receipt: { deliveryNoteNumber, lines, meta } });
  return { ...shop, at, create, openOrder, announce, receive };
}

describe('production orders', () => {
  it("creates a numbered draft in the supplier's currency with catalog copies of each line", async () => {
    const s = await setUp();
    const order = await s.create();
    expect(order).toMatchObject({
      productionOrderNumber: 1,
      status: 'draft',
      currency: 'EUR',
      supplierNumber: 'SUP-1',
    });
    expect(order.lines.map((l) => [l.sku, l.quantity, l.unitCost, l.productName])).toEqual([
      ['TEE-S', 10, 450, 'Product TEE'],
      ['TEE-M', 5, null, 'Product TEE'],
    ]);
    const read = await getProductionOrder(s.deps, { brandId: s.brand.id, productionOrderId: order.id });
    expect(read.timeline.map((e) => e.kind)).toEqual(['created']);
  });

  it('refuses an inactive supplier, an unknown SKU and a variant named twice, writing nothing', async () => {
    const s = await setUp();
    expect(
      await violationsOf(
        createProductionOrder(s.deps, {
          ...s.at,
          productionOrder: { supplierNumber: 'SUP-OFF', lines: [{ sku: 'NOPE', quantity: 1 }] },
        }),
      ),
    ).toEqual({
      '/supplier_number': expect.stringContaining('inactive'),
      '/lines/0/sku': expect.stringContaining('is not a variant of this brand'),
    });
    expect(
      await violationsOf(
        s.create([
          { sku: 'TEE-S', quantity: 1 },
          { sku: 'TEE-S', quantity: 2 },
        ]),
      ),
    ).toEqual({
      '/lines/1/sku': expect.stringContaining('already on line 0'),
    });
    const order = await s.create();
    expect(order.productionOrderNumber).toBe(1);
  });

  it('moves draft → open → closed and refuses other moves', async () => {
    const s = await setUp();
    const order = await s.openOrder();
    expect(order.status).toBe('open');
    expect((await errorOf(approveProductionOrder(s.deps, { ...s.at, productionOrderId: order.id }))).code).toBe(
      'invalid_state_transition',
    );
    const closed = await closeProductionOrder(s.deps, { ...s.at, productionOrderId: order.id });
    expect(closed.status).toBe('closed');
  });
});

describe('delivery notes and 3PL receipts', () => {
  it('announces a delivery only on an open order, only for its lines, raising expected pieces', async () => {
    const s = await setUp();
    const draft = await s.create();
    expect((await errorOf(s.announce(draft.id))).code).toBe('invalid_state_transition');
    const order = await approveProductionOrder(s.deps, { ...s.at, productionOrderId: draft.id });
    await s.products([product('CAP', { variants: [variant('CAP-M', 0)] })]);
    expect(await violationsOf(s.announce(order.id, [{ sku: 'CAP-M', quantity: 1 }]))).toEqual({
      '/lines/0/sku': expect.stringContaining('is not on production order 1'),
    });
    const { deliveryNote, productionOrder } = await s.announce(order.id);
    expect(deliveryNote).toMatchObject({
      deliveryNoteNumber: 1,
      status: 'expected',
      lines: [{ sku: 'TEE-S', expectedQuantity: 6, receivedQuantity: 0 }],
    });
    expect(productionOrder.lines.map((l) => l.expectedQuantity)).toEqual([6, 0]);
  });

  it('receives pieces into stock, accumulating over calls and merging meta', async () => {
    const s = await setUp();
    const order = await s.openOrder();
    const { deliveryNote } = await s.announce(order.id);
    const first = await s.receive(deliveryNote.deliveryNoteNumber, [{ sku: 'TEE-S', receivedQuantity: 4 }], {
      dock: '3',
    });
    expect(first.note).toMatchObject({ status: 'received', meta: { dock: '3' }, lines: [{ receivedQuantity: 4 }] });
    expect(await s.stock('TEE-S')).toEqual({ inStock: 6, available: 6 });
    const second = await s.receive(deliveryNote.deliveryNoteNumber, [{ sku: 'TEE-S', receivedQuantity: 3 }], {
      pallet: 'B',
    });
    expect(second.note.lines[0]!.receivedQuantity).toBe(7);
    expect(second.note.meta).toEqual({ dock: '3', pallet: 'B' });
    expect(await s.stock('TEE-S')).toEqual({ inStock: 9, available: 9 });
    const read = await getProductionOrder(s.deps, { brandId: s.brand.id, productionOrderId: order.id });
    expect(read.productionOrder.lines.map((l) => l.receivedQuantity)).toEqual([7, 0]);
    expect(read.timeline.map((e) => e.kind)).toEqual([
      'created',
      'approved',
      'delivery_note_created',
      'delivery_note_received',
      'delivery_note_received',
    ]);
  });

  it('refuses an unknown note, a line not on the note, a negative count and a closed order, all or nothing', async () => {
    const s = await setUp();
    const order = await s.openOrder();
    const { deliveryNote } = await s.announce(order.id);
    expect(await violationsOf(s.receive(999, [{ sku: 'TEE-S', receivedQuantity: 1 }]))).toEqual({
      '/production_order_delivery_note/production_order_delivery_note_number':
        expect.stringContaining('does not exist'),
    });
    expect(
      await violationsOf(
        s.receive(deliveryNote.deliveryNoteNumber, [
          { sku: 'TEE-S', receivedQuantity: 2 },
          { sku: 'TEE-M', receivedQuantity: -1 },
        ]),
      ),
    ).toEqual({
      '/production_order_delivery_note/lines/1/sku': expect.stringContaining('is not on delivery note 1'),
      '/production_order_delivery_note/lines/1/received_quantity':
        'production_order_delivery_note.lines[1].received_quantity must be a whole number of 0 or more',
    });
    expect(await s.stock('TEE-S')).toEqual({ inStock: 2, available: 2 });
    await closeProductionOrder(s.deps, { ...s.at, productionOrderId: order.id });
    expect(
      Object.keys(
        await violationsOf(s.receive(deliveryNote.deliveryNoteNumber, [{ sku: 'TEE-S', receivedQuantity: 1 }])),
      ),
    ).toEqual(['/production_order_delivery_note/production_order_delivery_note_number']);
  });

  it('lists delivery notes for the warehouse with supplier and production order', async () => {
    const s = await setUp();
    const order = await s.openOrder();
    await s.announce(order.id);
    const { page } = await listThirdPartyDeliveryNotes(s.deps, { brandId: s.brand.id, query: {} });
    expect(page.total).toBe(1);
    expect(page.items[0]!.supplier.name).toBe('Porto Mills');
    expect(page.items[0]!.productionOrder.id).toBe(order.id);
  });
});

describe('production order export', () => {
  it('exports open orders by default, drafts and closed on request, and hides marked ones', async () => {
    const s = await setUp();
    const draft = await s.create();
    const open = await s.openOrder();
    const closed = await s.openOrder();
    await closeProductionOrder(s.deps, { ...s.at, productionOrderId: closed.id });
    const exportIds = async (flags: { includeOpen?: boolean; includeClosed?: boolean } = {}) =>
      (
        await exportProductionOrders(s.deps, { list: { brandId: s.brand.id, query: {} }, systemId: 'erp', ...flags })
      ).page.items.map((o) => o.id);
    expect(await exportIds()).toEqual([open.id]);
    expect(await exportIds({ includeOpen: true, includeClosed: true })).toEqual([draft.id, open.id, closed.id]);
    await markDocumentsExported(s.deps, {
      brandId: s.brand.id,
      userId: s.user.id,
      documentType: 'production_order',
      arrayKey: 'production_orders',
      idKey: 'production_order_id',
      items: [{ documentId: open.id, systemId: 'erp', note: null }],
    });
    expect(await exportIds()).toEqual([]);
  });
});
