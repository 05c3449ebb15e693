import {
  AvailableStock,
  DomainEvent,
  NewStockMovement,
  Repositories,
  Shipment,
  UnitOfWork,
  applyStockMovements,
  approveProductionOrder,
  approveReturn,
  bookInvoice,
  cancelOrder,
  createDeliveryNote,
  createInventoryLocation,
  createProductionOrder,
  createReturn,
  deliverShipment,
  listAvailableStock,
  listEvents,
  markOrdersExported,
  receiveDeliveryNote,
  receiveThirdPartyReturn,
  syncSuppliers,
  updateLegacyVariant,
} from '../src';
import { customer, errorOf, product, setUpShop, variant, violationsOf } from './orders-shop.support';

/*
 * inventory.changed (DESIGN §10): one event per variant and location whose In stock or Available
 * moved, per transaction, carrying the row of `GET /v10/inventory-available` as the change left
 * it, written in the transaction of every use case that moves stock.
 */

type InventoryEvent = DomainEvent<'inventory.changed'>;

const MINUTE = 60_000;

/**
 * A shop of TEE-S and TEE-M (10 each) and CAP-ONE of a product kept without inventory, customer
 * C-1, and helpers to read the inventory events written since a mark and the available rows.
 */
async function aShop(options: { invoicing?: 'external' | 'in_service' } = {}) {
  const shop = await setUpShop();
  if (options.invoicing) await shop.settings({ invoicing: options.invoicing });
  await shop.products([
    product('TEE', { variants: [variant('TEE-S'), variant('TEE-M')] }),
    product('CAP', { noInventory: true, variants: [variant('CAP-ONE', null)] }),
  ]);
  await shop.customers([customer('C-1')]);
  const by = { brandId: shop.brand.id, userId: shop.user.id };

  const allEvents = async (): Promise<DomainEvent[]> =>
    (await listEvents(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } })).page.items;
  /** The id of the newest event so far: `since(mark)` reads only what came after it. */
  const mark = async (): Promise<number> => Math.max(0, ...(await allEvents()).map((e) => e.id));
  /** The inventory events written after `after`, oldest first (other types left out). */
  const since = async (after: number): Promise<InventoryEvent[]> =>
    (await allEvents()).filter((e): e is InventoryEvent => e.type === 'inventory.changed' && e.id > after);
  /** The brand's rows of `GET /v10/inventory-available` as they are now. */
  const rows = async (): Promise<AvailableStock[]> =>
    (await listAvailableStock(shop.deps, { brandId: shop.brand.id, query: { limit: '100' } })).page.items;
  /** The available row of a SKU at a location (the default one unless named), as it is now. */
  const rowOf = async (sku: string, locationId?: number): Promise<AvailableStock> => {
    const at = locationId ?? (await shop.defaultLocation()).id;
    const row = (await rows()).find((r) => r.sku === sku && r.locationId === at);
    if (!row) throw new Error(`no stock row of ${sku} at location ${at}`);
    return row;
  };
  /** The events expected for these rows, in this order, at the clock's instant. */
  const announcing = (objects: AvailableStock[]): InventoryEvent[] =>
    objects.map((object) => ({
      id: expect.any(Number) as number,
      brandId: shop.brand.id,
      type: 'inventory.changed',
      object,
      createdAt: shop.clock.now(),
    }));
  const channel = await shop.channel('b2b');
  const place = (lines: { sku: string; quantity: number }[], on = channel) =>
    shop.place(on, { customerNumber: 'C-1', lines });
  const cancel = (orderId: number) => cancelOrder(shop.deps, { ...by, orderId });
  const exportOrders = (items: { orderId: number; regulateInventory: boolean }[]) =>
    markOrdersExported(shop.deps, { ...by, items: items.map((i) => ({ ...i, systemId: 'erp', note: null })) });
  return { shop, by, mark, since, rows, rowOf, announcing, channel, place, cancel, exportOrders };
}

/** The warehouse delivers all a shipment holds, in one parcel. */
function deliverAll(shop: Awaited<ReturnType<typeof setUpShop>>, shipment: Shipment) {
  return deliverShipment(shop.deps, {
    brandId: shop.brand.id,
    userId: shop.user.id,
    delivery: {
      shipmentNumber: shipment.shipmentNumber,
      orderType: 'b2b',
      carrier: 'postnord',
      colli: [
        {
          trackTrace: null,
          trackTraceLink: null,
          ssccNumber: null,
          lines: shipment.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
        },
      ],
    },
  });
}

/** Storage whose timeline refuses to append: a use case failing after its stock moved. */
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

describe('inventory.changed when an order is placed', () => {
  it('announces each reserved balance before the order, with its row as GET /v10/inventory-available shows it after', async () => {
    const t = await aShop();
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();

    const { order } = await t.place([
      { sku: 'TEE-M', quantity: 2 },
      { sku: 'CAP-ONE', quantity: 1 },
      { sku: 'TEE-S', quantity: 3 },
    ]);

    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-M'), await t.rowOf('TEE-S')]));
    expect(events.map((e) => [e.object.sku, e.object.inStock, e.object.available])).toEqual([
      ['TEE-M', 10, 8],
      ['TEE-S', 10, 7],
    ]);
    const created = (
      await listEvents(t.shop.deps, { brandId: t.shop.brand.id, query: { limit: '100' } })
    ).page.items.find((e) => e.type === 'order.created')!;
    expect(created.object).toMatchObject({ id: order.id });
    expect(events.every((e) => e.id < created.id)).toBe(true);
  });

  it('announces a balance once when several lines reserve it, with the pieces of all of them', async () => {
    const t = await aShop();
    const before = await t.mark();

    await t.place([
      { sku: 'TEE-M', quantity: 2 },
      { sku: 'TEE-M', quantity: 3 },
    ]);

    expect(await t.since(before)).toEqual(t.announcing([await t.rowOf('TEE-M')]));
    expect((await t.rowOf('TEE-M')).available).toBe(5);
  });

  it('announces every location an order reserves at, each once', async () => {
    const t = await aShop();
    const outlet = await createInventoryLocation(t.shop.deps, { brandId: t.shop.brand.id, name: 'Outlet' });
    await t.shop.products([
      product('TEE', {
        variants: [
          variant('TEE-S', 2),
          variant('TEE-M', 10, { inventory: [{ quantity: 4, inventoryLocationId: outlet.id }] }),
        ],
      }),
    ]);
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();

    await t.place([{ sku: 'TEE-S', quantity: 1 }]);
    await t.shop.products([
      product('TEE', {
        variants: [variant('TEE-S', 2), variant('TEE-M', 0, { inventory: [{ quantity: 0 }] })],
      }),
    ]);
    const afterSync = await t.mark();
    await t.place([{ sku: 'TEE-M', quantity: 3 }]);

    const outletRow = await t.rowOf('TEE-M', outlet.id);
    expect(outletRow).toMatchObject({ inStock: 4, available: 1 });
    expect(await t.since(afterSync)).toEqual(t.announcing([outletRow]));
    expect((await t.since(before)).filter((e) => e.id <= afterSync).map((e) => e.object.sku)).toEqual([
      'TEE-S',
      'TEE-M',
    ]);
  });

  it('announces nothing for a refused order, nor for an order of products kept without inventory', async () => {
    const t = await aShop();
    const before = await t.mark();

    const refused = await violationsOf(
      t.place([
        { sku: 'TEE-M', quantity: 2 },
        { sku: 'TEE-S', quantity: 11 },
      ]),
    );
    expect(Object.keys(refused)).toEqual(['/order/lines/1/quantity']);
    await t.place([{ sku: 'CAP-ONE', quantity: 4 }]);

    expect(await t.since(before)).toEqual([]);
    expect((await t.rowOf('TEE-M')).available).toBe(10);
  });

  it('announces nothing when the transaction fails after the stock moved', async () => {
    const t = await aShop();
    const { order } = await t.place([{ sku: 'TEE-M', quantity: 1 }]);
    const before = await t.mark();

    await expect(
      cancelOrder({ uow: failingTimeline(t.shop.uow), clock: t.shop.clock }, { ...t.by, orderId: order.id }),
    ).rejects.toThrow('timeline unavailable');

    expect(await t.since(before)).toEqual([]);
    expect((await t.rowOf('TEE-M')).available).toBe(9);
  });
});

describe('inventory.changed when an order lets go of stock', () => {
  it('announces the released balances of a cancelled order: Available rises, In stock stays', async () => {
    const t = await aShop();
    const { order } = await t.place([
      { sku: 'TEE-M', quantity: 2 },
      { sku: 'TEE-S', quantity: 1 },
    ]);
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();

    await t.cancel(order.id);
    const again = await errorOf(t.cancel(order.id));

    expect(again.code).toBe('invalid_state_transition');
    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-M'), await t.rowOf('TEE-S')]));
    expect(events.map((e) => [e.object.inStock, e.object.available])).toEqual([
      [10, 10],
      [10, 10],
    ]);
  });

  it('announces the regulated balances of orders exported with regulate_inventory, once per balance for all of them', async () => {
    const t = await aShop();
    const auto = await t.shop.channel('b2b', { autoApprove: true });
    const first = await t.place([{ sku: 'TEE-M', quantity: 2 }], auto);
    const second = await t.place(
      [
        { sku: 'TEE-M', quantity: 3 },
        { sku: 'TEE-S', quantity: 1 },
      ],
      auto,
    );
    const draft = await t.place([{ sku: 'TEE-S', quantity: 1 }]);
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();

    const refused = await errorOf(
      t.exportOrders([
        { orderId: first.order.id, regulateInventory: true },
        { orderId: draft.order.id, regulateInventory: true },
      ]),
    );
    expect(refused.code).toBe('invalid_state_transition');
    expect(await t.since(before)).toEqual([]);

    await t.exportOrders([
      { orderId: first.order.id, regulateInventory: true },
      { orderId: second.order.id, regulateInventory: true },
    ]);

    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-M'), await t.rowOf('TEE-S')]));
    // Reserved pieces leave In stock: Available stays where the orders put it.
    expect(events.map((e) => [e.object.sku, e.object.inStock, e.object.available])).toEqual([
      ['TEE-M', 5, 5],
      ['TEE-S', 9, 8],
    ]);

    // Exporting again regulates nothing: nothing moves, nothing is announced.
    const after = await t.mark();
    await t.exportOrders([{ orderId: second.order.id, regulateInventory: true }]);
    expect(await t.since(after)).toEqual([]);
  });

  it('announces the balances a booked invoice regulates, and nothing for a refused second booking', async () => {
    const t = await aShop({ invoicing: 'in_service' });
    const auto = await t.shop.channel('b2b', { autoApprove: true });
    const { shipment } = await t.place(
      [
        { sku: 'TEE-S', quantity: 1 },
        { sku: 'TEE-M', quantity: 2 },
      ],
      auto,
    );
    const { invoice } = await deliverAll(t.shop, shipment!);
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();

    await bookInvoice(t.shop.deps, { ...t.by, invoiceId: invoice!.id });
    const twice = await errorOf(bookInvoice(t.shop.deps, { ...t.by, invoiceId: invoice!.id }));

    expect(twice.code).toBe('invalid_state_transition');
    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-S'), await t.rowOf('TEE-M')]));
    expect(events.map((e) => [e.object.sku, e.object.inStock, e.object.available])).toEqual([
      ['TEE-S', 9, 9],
      ['TEE-M', 8, 8],
    ]);
  });
});

describe('inventory.changed when stock comes in', () => {
  it('announces the balances a product sync moves, and not those it leaves as they are', async () => {
    const t = await aShop();
    const outlet = await createInventoryLocation(t.shop.deps, { brandId: t.shop.brand.id, name: 'Outlet' });
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();

    await t.shop.products([
      product('TEE', {
        variants: [
          variant('TEE-S', 10),
          variant('TEE-M', 7, { inventory: [{ quantity: 7 }, { adjustment: 2, inventoryLocationId: outlet.id }] }),
        ],
      }),
    ]);

    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-M'), await t.rowOf('TEE-M', outlet.id)]));
    expect(events.map((e) => [e.object.locationId, e.object.inStock, e.object.available])).toEqual([
      [(await t.shop.defaultLocation()).id, 7, 7],
      [outlet.id, 2, 2],
    ]);
  });

  it('announces nothing for a sync whose changes of a balance add up to nothing, nor for a refused sync', async () => {
    const t = await aShop();
    const before = await t.mark();

    await t.shop.products([
      product('TEE', {
        variants: [
          variant('TEE-S', null, { inventory: [{ adjustment: 3 }, { adjustment: -3 }] }),
          variant('TEE-M', 10),
        ],
      }),
    ]);
    const refused = await errorOf(
      t.shop.products([product('TEE', { variants: [variant('TEE-S', null, { inventory: [{ adjustment: -11 }] })] })]),
    );

    expect(refused.code).toBe('validation_failed');
    expect(await t.since(before)).toEqual([]);
    expect((await t.rowOf('TEE-S')).inStock).toBe(10);
  });

  it('announces the stock an older-interface variant update sets', async () => {
    const t = await aShop();
    const [record] = await t.shop.uow.read((r) => r.products.findVariantsBySkus(t.shop.brand.id, ['TEE-M']));
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();

    await updateLegacyVariant(t.shop.deps, {
      brandId: t.shop.brand.id,
      productId: record!.variant.productId,
      variantId: record!.variant.id,
      variant: { inventory: { stock: { quantity: 4 } } },
    });
    await updateLegacyVariant(t.shop.deps, {
      brandId: t.shop.brand.id,
      productId: record!.variant.productId,
      variantId: record!.variant.id,
      variant: { inventory: { stock: { quantity: 4 } } },
    });

    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-M')]));
    expect(events[0]!.object).toMatchObject({ inStock: 4, available: 4 });
  });

  it('announces the balances a production receipt fills, and nothing for a refused receipt', async () => {
    const t = await aShop();
    await syncSuppliers(t.shop.deps, {
      brandId: t.shop.brand.id,
      suppliers: [{ supplierNumber: 'SUP-1', name: 'Porto Mills', currency: 'EUR' }],
    });
    const production = await createProductionOrder(t.shop.deps, {
      ...t.by,
      productionOrder: {
        supplierNumber: 'SUP-1',
        lines: [
          { sku: 'TEE-S', quantity: 10 },
          { sku: 'TEE-M', quantity: 5 },
        ],
      },
    });
    await approveProductionOrder(t.shop.deps, { ...t.by, productionOrderId: production.id });
    const note = await createDeliveryNote(t.shop.deps, {
      ...t.by,
      productionOrderId: production.id,
      deliveryNote: {
        lines: [
          { sku: 'TEE-S', quantity: 6 },
          { sku: 'TEE-M', quantity: 4 },
        ],
      },
    });
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();
    const receive = (lines: { sku: string; receivedQuantity: number }[]) =>
      receiveDeliveryNote(t.shop.deps, {
        ...t.by,
        receipt: { deliveryNoteNumber: note.deliveryNote.deliveryNoteNumber, lines },
      });

    const refused = await errorOf(receive([{ sku: 'NOPE', receivedQuantity: 1 }]));
    expect(refused.code).toBe('validation_failed');
    await receive([
      { sku: 'TEE-M', receivedQuantity: 4 },
      { sku: 'TEE-S', receivedQuantity: 0 },
    ]);

    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-M')]));
    expect(events[0]!.object).toMatchObject({ inStock: 14, available: 14 });
  });

  it('announces the balances a return receipt restocks, and nothing for a refused receipt', async () => {
    const t = await aShop();
    const auto = await t.shop.channel('b2b', { autoApprove: true });
    const { order, shipment } = await t.place(
      [
        { sku: 'TEE-M', quantity: 3 },
        { sku: 'TEE-S', quantity: 1 },
      ],
      auto,
    );
    await deliverAll(t.shop, shipment!);
    const created = await createReturn(t.shop.deps, {
      ...t.by,
      orderNumber: order.orderNumber,
      lines: [{ sku: 'TEE-M', quantity: 2, claimType: 'return' }],
    });
    await approveReturn(t.shop.deps, { ...t.by, returnId: created.id });
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();
    const receive = (receivedQuantity: number) =>
      receiveThirdPartyReturn(t.shop.deps, { ...t.by, rma: created.rma, lines: [{ sku: 'TEE-M', receivedQuantity }] });

    const over = await errorOf(receive(3));
    expect(over.code).toBe('validation_failed');
    await receive(2);

    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-M')]));
    expect(events[0]!.object).toMatchObject({ inStock: 12, available: 9 });
  });
});

describe('applyStockMovements', () => {
  /** A movement of a variant at the default location. */
  const movement = (
    variantId: number,
    locationId: number,
    inStockDelta: number,
    reservedDelta: number,
  ): NewStockMovement => ({
    brandId: 0,
    variantId,
    locationId,
    inStockDelta,
    reservedDelta,
    reason: 'sync_adjustment',
    note: null,
    documentType: null,
    documentId: null,
    userId: null,
  });

  it('announces a balance when In stock or Available moved net, once, and not when neither did', async () => {
    const t = await aShop();
    const location = (await t.shop.defaultLocation()).id;
    const [s, m] = [await t.shop.variantId('TEE-S'), await t.shop.variantId('TEE-M')];
    const brandId = t.shop.brand.id;
    const at = (v: number, inStock: number, reserved: number) => ({
      ...movement(v, location, inStock, reserved),
      brandId,
    });
    t.shop.clock.advance(MINUTE);
    const before = await t.mark();

    const balances = await t.shop.uow.run((tx) =>
      applyStockMovements(
        tx,
        brandId,
        [
          // TEE-S: reserved and released again: nothing moved.
          at(s, 0, 2),
          at(s, 0, -2),
          // TEE-M: one piece regulated out of its reservation (In stock moves, Available stays), twice.
          at(m, 0, 2),
          at(m, -1, -1),
          at(m, -1, -1),
        ],
        t.shop.clock.now(),
      ),
    );

    expect(balances.map((b) => [b.sku, b.inStock, b.reserved])).toEqual([
      ['TEE-S', 10, 0],
      ['TEE-M', 8, 0],
    ]);
    expect(await t.since(before)).toEqual(t.announcing([await t.rowOf('TEE-M')]));
    expect((await t.rowOf('TEE-M')).available).toBe(8);
  });

  it('announces a reservation alone (Available moves, In stock stays) and nothing for no movements', async () => {
    const t = await aShop();
    const location = (await t.shop.defaultLocation()).id;
    const brandId = t.shop.brand.id;
    const s = await t.shop.variantId('TEE-S');
    const before = await t.mark();

    await t.shop.uow.run((tx) => applyStockMovements(tx, brandId, [], t.shop.clock.now()));
    expect(await t.since(before)).toEqual([]);
    await t.shop.uow.run((tx) =>
      applyStockMovements(tx, brandId, [{ ...movement(s, location, 0, 4), brandId }], t.shop.clock.now()),
    );

    const events = await t.since(before);
    expect(events).toEqual(t.announcing([await t.rowOf('TEE-S')]));
    expect(events[0]!.object).toMatchObject({ inStock: 10, available: 6 });
  });
});
