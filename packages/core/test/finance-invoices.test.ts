import {
  AccountingEntry,
  bookInvoice,
  getInvoice,
  listAccountingEntries,
  listInvoices,
  markOrdersExported,
  updateBrandSettings,
} from '../src';
import {
  aShipment,
  aWorld,
  anInvoice,
  anOrder,
  domainErrorOf,
  listOf,
  orderNow,
  stockOf,
  stockUp,
} from './orders-fixtures';

const sumOf = (entry: AccountingEntry, side: 'debit' | 'credit') => entry.lines.reduce((sum, l) => sum + l[side], 0);
const amountOf = (entry: AccountingEntry, account: string) => entry.lines.find((l) => l.account === account);

describe('booking an invoice', () => {
  it('books a B2B invoice with a balanced entry: receivable debited, revenue and VAT credited', async () => {
    const world = await aWorld();
    // 3 × 19.99 less 10 % = 53.97, shipping 4.95: net 58.92, VAT 25 % 14.73, total 73.65.
    const order = await anOrder(world, {
      lines: [{ variantId: 11, sku: 'TEE-M', quantity: 3, unitPrice: 1999, discountBasisPoints: 1000 }],
      shippingCost: 495,
    });
    const draft = await anInvoice(world, order);
    expect(draft).toMatchObject({ status: 'draft', netTotal: 5892, vatTotal: 1473, total: 7365 });

    world.clock.advance(3_600_000);
    const { invoice, accountingEntry } = await bookInvoice(world.deps, {
      brandId: world.brand.id,
      userId: 7,
      invoiceId: draft.id,
    });

    expect(invoice).toMatchObject({
      status: 'booked',
      bookedAt: world.clock.now(),
      updatedAt: world.clock.now(),
      inventoryRegulated: false,
    });
    expect(accountingEntry).toMatchObject({
      documentType: 'invoice',
      documentId: draft.id,
      currency: 'EUR',
      date: world.clock.now().slice(0, 10),
      entryNumber: 1,
    });
    expect(accountingEntry.lines).toEqual([
      { account: 'accounts_receivable', debit: 7365, credit: 0 },
      { account: 'revenue', debit: 0, credit: 5892 },
      { account: 'vat_payable', debit: 0, credit: 1473 },
    ]);
    expect(sumOf(accountingEntry, 'debit')).toBe(sumOf(accountingEntry, 'credit'));

    const detail = await getInvoice(world.deps, { brandId: world.brand.id, invoiceId: draft.id });
    expect(detail.invoice.status).toBe('booked');
    expect(detail.accountingEntry).toEqual(accountingEntry);
    expect(detail.timeline.map((e) => [e.kind, e.userId])).toEqual([
      ['created', null],
      ['booked', 7],
    ]);
    expect(detail.timeline[1]!.note).toContain('accounting entry 1');
  });

  it('takes the VAT out of B2C gross prices, so the entry receives exactly what the customer paid', async () => {
    const world = await aWorld();
    // 2 × 249.00 incl. 25 % VAT = 498.00 → net 398.40, VAT 99.60.
    const order = await anOrder(world, {
      orderType: 'b2c',
      lines: [{ variantId: 21, sku: 'COAT-S', quantity: 2, unitPrice: 24900 }],
    });
    const draft = await anInvoice(world, order);
    const { invoice, accountingEntry } = await bookInvoice(world.deps, {
      brandId: world.brand.id,
      userId: null,
      invoiceId: draft.id,
    });
    expect(invoice).toMatchObject({ pricesIncludeVat: true, netTotal: 39840, vatTotal: 9960, total: 49800 });
    expect(amountOf(accountingEntry, 'accounts_receivable')).toEqual({
      account: 'accounts_receivable',
      debit: 49800,
      credit: 0,
    });
    expect(amountOf(accountingEntry, 'revenue')).toEqual({ account: 'revenue', debit: 0, credit: 39840 });
    expect(amountOf(accountingEntry, 'vat_payable')).toEqual({ account: 'vat_payable', debit: 0, credit: 9960 });
    expect(sumOf(accountingEntry, 'debit')).toBe(sumOf(accountingEntry, 'credit'));
  });

  it('refuses to book an invoice twice and writes no second entry', async () => {
    const world = await aWorld();
    const order = await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 1, unitPrice: 1000 }] });
    const draft = await anInvoice(world, order);
    await bookInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: draft.id });

    const error = await domainErrorOf(
      bookInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: draft.id }),
    );
    expect(error.code).toBe('invalid_state_transition');
    expect(error.message).toContain('booked');
    const entries = await listAccountingEntries(world.deps, listOf(world));
    expect(entries.page.items).toHaveLength(1);
  });

  it("answers not found for an unknown invoice or another brand's", async () => {
    const world = await aWorld();
    const other = await aWorld({ uow: world.uow, clock: world.clock, brandName: 'South Knits' });
    const theirs = await anInvoice(
      other,
      await anOrder(other, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 1, unitPrice: 1000 }] }),
    );
    expect(
      (await domainErrorOf(bookInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: theirs.id })))
        .code,
    ).toBe('not_found');
    expect((await domainErrorOf(getInvoice(world.deps, { brandId: world.brand.id, invoiceId: 999 }))).code).toBe(
      'not_found',
    );
  });

  it('leaves stock and order alone when the brand invoices externally', async () => {
    const world = await aWorld();
    await stockUp(world, 11, 10);
    const order = await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 3, unitPrice: 1000 }] });
    const draft = await anInvoice(world, order);
    const { invoice } = await bookInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: draft.id });
    expect(invoice.inventoryRegulated).toBe(false);
    expect(await stockOf(world, 11)).toEqual({ inStock: 10, available: 7 });
    expect(await orderNow(world, order.id)).toMatchObject({
      status: 'approved',
      lines: [expect.objectContaining({ regulatedQuantity: 0 })],
    });
  });

  it('lists invoices with their export marks', async () => {
    const world = await aWorld();
    const first = await anInvoice(
      world,
      await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 1, unitPrice: 1000 }] }),
    );
    const second = await anInvoice(
      world,
      await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 2, unitPrice: 1000 }] }),
    );
    const { page, exports } = await listInvoices(
      world.deps,
      listOf(world, { filter_groups: [{ filters: [{ key: 'status', value: 'draft' }] }] }),
    );
    expect(page.items.map((i) => i.id)).toEqual([first.id, second.id]);
    expect(page.total).toBe(2);
    expect(exports.get(first.id)).toEqual([]);
  });
});

describe('booking an invoice when the brand invoices in the service', () => {
  it('takes the invoiced pieces out of In stock and their reservation, once, and archives the order when all is regulated', async () => {
    const world = await aWorld({ invoicing: 'in_service' });
    await stockUp(world, 11, 10);
    const order = await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 3, unitPrice: 1000 }] });
    expect(await stockOf(world, 11)).toEqual({ inStock: 10, available: 7 });
    const draft = await anInvoice(world, order);

    const { invoice } = await bookInvoice(world.deps, { brandId: world.brand.id, userId: 7, invoiceId: draft.id });

    expect(invoice.inventoryRegulated).toBe(true);
    expect(await stockOf(world, 11)).toEqual({ inStock: 7, available: 7 });
    const after = await orderNow(world, order.id);
    expect(after).toMatchObject({ status: 'archived', archivedAt: world.clock.now() });
    expect(after.lines[0]).toMatchObject({ regulatedQuantity: 3, reservations: [] });
    const movements = await world.uow.read((r) => r.stock.movements(world.brand.id, 11, 10));
    expect(movements[0]).toMatchObject({
      reason: 'invoice_regulated',
      inStockDelta: -3,
      reservedDelta: -3,
      documentType: 'invoice',
      documentId: invoice.id,
    });
    const timeline = await world.uow.read((r) => r.timeline.eventsOf(world.brand.id, 'order', order.id));
    expect(timeline.map((e) => e.kind)).toEqual(['booked', 'regulated', 'archived']);

    // A refused second booking moves nothing.
    await domainErrorOf(bookInvoice(world.deps, { brandId: world.brand.id, userId: 7, invoiceId: draft.id }));
    expect(await stockOf(world, 11)).toEqual({ inStock: 7, available: 7 });
  });

  it('regulates shipment by shipment and archives the order only with its last invoice', async () => {
    const world = await aWorld({ invoicing: 'in_service' });
    await stockUp(world, 11, 10);
    const order = await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 5, unitPrice: 1000 }] });
    const lineId = order.lines[0]!.id;
    const first = await anInvoice(world, order, await aShipment(world, order, { pieces: new Map([[lineId, 2]]) }));
    await bookInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: first.id });
    expect(await stockOf(world, 11)).toEqual({ inStock: 8, available: 5 });
    expect(await orderNow(world, order.id)).toMatchObject({
      status: 'approved',
      lines: [expect.objectContaining({ regulatedQuantity: 2 })],
    });

    const second = await anInvoice(world, order, await aShipment(world, order, { pieces: new Map([[lineId, 3]]) }));
    await bookInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: second.id });
    expect(await stockOf(world, 11)).toEqual({ inStock: 5, available: 5 });
    expect((await orderNow(world, order.id)).status).toBe('archived');
  });

  it('counts pieces sold beyond stock (no reservation) out of In stock alone', async () => {
    const world = await aWorld({ invoicing: 'in_service' });
    await stockUp(world, 11, 1);
    const order = await anOrder(world, {
      lines: [{ variantId: 11, sku: 'TEE-M', quantity: 3, unitPrice: 1000, reserved: 1 }],
    });
    const draft = await anInvoice(world, order);
    await bookInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: draft.id });
    expect(await stockOf(world, 11)).toEqual({ inStock: -2, available: -2 });
    expect((await orderNow(world, order.id)).lines[0]).toMatchObject({ regulatedQuantity: 3, reservations: [] });
  });

  it('does not regulate again what an export already regulated before the brand moved to in-service invoicing', async () => {
    const world = await aWorld();
    await stockUp(world, 11, 10);
    const order = await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 3, unitPrice: 1000 }] });
    const draft = await anInvoice(world, order);
    await markOrdersExported(world.deps, {
      brandId: world.brand.id,
      userId: null,
      items: [{ orderId: order.id, systemId: 'erp', note: null, regulateInventory: true }],
    });
    expect(await stockOf(world, 11)).toEqual({ inStock: 7, available: 7 });

    await updateBrandSettings(world.deps, { brandId: world.brand.id, changes: { invoicing: 'in_service' } });
    const { accountingEntry } = await bookInvoice(world.deps, {
      brandId: world.brand.id,
      userId: null,
      invoiceId: draft.id,
    });
    expect(accountingEntry.lines).toHaveLength(3);
    expect(await stockOf(world, 11)).toEqual({ inStock: 7, available: 7 });
    expect((await orderNow(world, order.id)).lines[0]!.regulatedQuantity).toBe(3);
  });
});
