import {
  MarkableDocumentType,
  bookCreditNote,
  bookInvoice,
  creditInvoice,
  exportAccountingEntries,
  exportCreditNotes,
  exportInvoices,
  exportShipments,
  exportThirdPartyShipments,
  getCreditNote,
  getInvoice,
  markDocumentsExported,
  sortSignature,
} from '../src';
import { World, aShipment, aWorld, anInvoice, anOrder, domainErrorOf, listOf } from './orders-fixtures';

const tee = (quantity = 1) => ({ variantId: 11, sku: 'TEE-M', quantity, unitPrice: 1000 });
const ids = (result: { page: { items: Array<{ id: number }> } }) => result.page.items.map((d) => d.id);
const KEYS: Record<MarkableDocumentType, { arrayKey: string; idKey: string }> = {
  shipment: { arrayKey: 'shipments', idKey: 'shipment_id' },
  invoice: { arrayKey: 'invoices', idKey: 'invoice_id' },
  credit_note: { arrayKey: 'credit_notes', idKey: 'credit_note_id' },
  accounting_entry: { arrayKey: 'accounting_entries', idKey: 'accounting_entry_id' },
  return: { arrayKey: 'returns', idKey: 'return_id' },
  production_order: { arrayKey: 'production_orders', idKey: 'production_order_id' },
};
const mark = (
  world: World,
  documentType: MarkableDocumentType,
  items: Array<{ id: number; systemId?: string; note?: string | null }>,
) =>
  markDocumentsExported(world.deps, {
    brandId: world.brand.id,
    userId: 2,
    documentType,
    ...KEYS[documentType],
    items: items.map((i) => ({ documentId: i.id, systemId: i.systemId ?? 'erp', note: i.note ?? null })),
  });

describe('exporting shipments', () => {
  it('lists open shipments, plus cancelled and completed ones on request', async () => {
    const world = await aWorld();
    const order = await anOrder(world, { lines: [tee(3)] });
    const line = order.lines[0]!.id;
    const completed = await aShipment(world, order, { status: 'completed', pieces: new Map([[line, 1]]) });
    const open = await aShipment(world, order, { status: 'open', pieces: new Map([[line, 1]]) });
    const cancelled = await aShipment(world, order, { status: 'cancelled', pieces: new Map([[line, 1]]) });

    const run = (flags: { includeCancelled?: boolean; includeCompleted?: boolean } = {}) =>
      exportShipments(world.deps, { list: listOf(world, { includes: ['lines'] }), systemId: 'wms', ...flags });
    expect(ids(await run())).toEqual([open.id]);
    expect(ids(await run({ includeCancelled: true }))).toEqual([open.id, cancelled.id]);
    expect(ids(await run({ includeCancelled: true, includeCompleted: true }))).toEqual([
      completed.id,
      open.id,
      cancelled.id,
    ]);
  });

  it('marks a shipment for one system, notes it on the timeline, and keeps it in the 3PL export of another', async () => {
    const world = await aWorld();
    const order = await anOrder(world, { lines: [tee(2)], shippingCost: 495 });
    const shipment = await aShipment(world, order, { status: 'open' });
    world.clock.advance(1000);
    await mark(world, 'shipment', [{ id: shipment.id, systemId: 'wms', note: 'picked up by WMS' }]);

    expect(ids(await exportShipments(world.deps, { list: listOf(world), systemId: 'wms' }))).toEqual([]);
    const forCarrier = await exportThirdPartyShipments(world.deps, { list: listOf(world), systemId: 'carrier' });
    expect(forCarrier.page.items.map((v) => v.shipment.id)).toEqual([shipment.id]);
    const [view] = forCarrier.page.items;
    expect(view!.order.id).toBe(order.id);
    expect(view!.customer.customerNumber).toBe('C-1');
    expect(view!.exports).toEqual([
      expect.objectContaining({ systemId: 'wms', note: 'picked up by WMS', exportedAt: world.clock.now() }),
    ]);
    expect(forCarrier.exports.get(shipment.id)).toEqual(view!.exports);
    expect(forCarrier.page.total).toBeNull();
    expect((await exportThirdPartyShipments(world.deps, { list: listOf(world), systemId: 'wms' })).page.items).toEqual(
      [],
    );

    const timeline = await world.uow.read((r) => r.timeline.eventsOf(world.brand.id, 'shipment', shipment.id));
    expect(timeline.map((e) => [e.kind, e.note, e.systemId, e.userId])).toEqual([
      ['exported', 'picked up by WMS', 'wms', 2],
    ]);
  });

  it('refuses a cursor of the v10 export on the 3PL export', async () => {
    const world = await aWorld();
    const order = await anOrder(world, { lines: [tee(2)] });
    await aShipment(world, order, { status: 'open', pieces: new Map([[order.lines[0]!.id, 1]]) });
    await aShipment(world, order, { status: 'open', pieces: new Map([[order.lines[0]!.id, 1]]) });
    const first = await exportShipments(world.deps, { list: listOf(world, { limit: '1' }), systemId: 'wms' });
    const cursor = {
      resource: 'shipments_export',
      sort: sortSignature(first.query.sort),
      values: first.page.next!.values,
    };
    const error = await domainErrorOf(
      exportThirdPartyShipments(world.deps, {
        list: { ...listOf(world, { limit: '1', cursor: 'x' }), cursor },
        systemId: 'wms',
      }),
    );
    expect(error).toMatchObject({ code: 'invalid_list_query', violations: [{ pointer: '/cursor' }] });
  });
});

describe('exporting invoices, credit notes and accounting entries', () => {
  async function booked(world: World) {
    const draft = await anInvoice(world, await anOrder(world, { lines: [tee(2)] }));
    const { invoice, accountingEntry } = await bookInvoice(world.deps, {
      brandId: world.brand.id,
      userId: null,
      invoiceId: draft.id,
    });
    return { invoice, accountingEntry };
  }

  it('lists booked invoices, and drafts with include_non_booked', async () => {
    const world = await aWorld();
    const { invoice } = await booked(world);
    const draft = await anInvoice(world, await anOrder(world, { lines: [tee()] }));
    expect(ids(await exportInvoices(world.deps, { list: listOf(world), systemId: 'erp' }))).toEqual([invoice.id]);
    expect(
      ids(await exportInvoices(world.deps, { list: listOf(world), systemId: 'erp', includeNonBooked: true })),
    ).toEqual([invoice.id, draft.id]);
  });

  it('marks invoices: hidden from that system afterwards, shown on the invoice, harmless twice', async () => {
    const world = await aWorld();
    const { invoice } = await booked(world);
    await mark(world, 'invoice', [{ id: invoice.id, note: 'first' }]);
    world.clock.advance(1000);
    await mark(world, 'invoice', [{ id: invoice.id, note: 'second' }]);

    expect(ids(await exportInvoices(world.deps, { list: listOf(world), systemId: 'erp' }))).toEqual([]);
    expect(ids(await exportInvoices(world.deps, { list: listOf(world), systemId: 'bi' }))).toEqual([invoice.id]);
    const detail = await getInvoice(world.deps, { brandId: world.brand.id, invoiceId: invoice.id });
    expect(detail.exports).toEqual([
      expect.objectContaining({ systemId: 'erp', note: 'second', exportedAt: world.clock.now() }),
    ]);
    expect(detail.timeline.filter((e) => e.kind === 'exported').map((e) => e.note)).toEqual(['first', 'second']);
  });

  it('lists booked credit notes, drafts on request, and marks them', async () => {
    const world = await aWorld();
    const { invoice } = await booked(world);
    const first = await creditInvoice(world.deps, {
      brandId: world.brand.id,
      userId: null,
      invoiceId: invoice.id,
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });
    const second = await creditInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: invoice.id });
    await bookCreditNote(world.deps, { brandId: world.brand.id, userId: null, creditNoteId: first.id });

    expect(ids(await exportCreditNotes(world.deps, { list: listOf(world), systemId: 'erp' }))).toEqual([first.id]);
    expect(
      ids(await exportCreditNotes(world.deps, { list: listOf(world), systemId: 'erp', includeNonBooked: true })),
    ).toEqual([first.id, second.id]);
    await mark(world, 'credit_note', [{ id: first.id, note: 'CN imported' }]);
    expect(
      ids(await exportCreditNotes(world.deps, { list: listOf(world), systemId: 'erp', includeNonBooked: true })),
    ).toEqual([second.id]);
    expect(
      (await getCreditNote(world.deps, { brandId: world.brand.id, creditNoteId: first.id })).exports.map((m) => m.note),
    ).toEqual(['CN imported']);
  });

  it('lists every accounting entry not yet exported, and marks them', async () => {
    const world = await aWorld();
    const one = await booked(world);
    const two = await booked(world);
    const before = world.clock.now();
    world.clock.advance(1000);
    const all = await exportAccountingEntries(world.deps, { list: listOf(world), systemId: 'ledger' });
    expect(ids(all)).toEqual([one.accountingEntry.id, two.accountingEntry.id]);
    expect(all.page.items[0]!.lines).toHaveLength(3);

    await mark(world, 'accounting_entry', [{ id: one.accountingEntry.id, systemId: 'ledger' }]);
    expect(ids(await exportAccountingEntries(world.deps, { list: listOf(world), systemId: 'ledger' }))).toEqual([
      two.accountingEntry.id,
    ]);
    expect(
      ids(
        await exportAccountingEntries(world.deps, {
          list: listOf(world),
          systemId: 'ledger',
          notExportedSince: before,
        }),
      ),
    ).toEqual([one.accountingEntry.id, two.accountingEntry.id]);
  });

  it("refuses an unknown or another brand's document id, naming its item, and marks nothing", async () => {
    const world = await aWorld();
    const other = await aWorld({ uow: world.uow, clock: world.clock, brandName: 'South Knits' });
    const ours = await booked(world);
    const theirs = await booked(other);

    const error = await domainErrorOf(mark(world, 'invoice', [{ id: ours.invoice.id }, { id: theirs.invoice.id }]));
    expect(error).toMatchObject({
      code: 'validation_failed',
      violations: [
        {
          pointer: '/invoices/1/invoice_id',
          detail: expect.stringContaining(`${theirs.invoice.id} is not an invoice of this brand`),
        },
      ],
    });
    expect(ids(await exportInvoices(world.deps, { list: listOf(world), systemId: 'erp' }))).toEqual([ours.invoice.id]);

    const entries = await domainErrorOf(mark(world, 'accounting_entry', [{ id: 999 }]));
    expect(entries.violations.map((v) => v.pointer)).toEqual(['/accounting_entries/0/accounting_entry_id']);
    expect(entries.violations[0]!.detail).toContain('999 is not an accounting entry');
  });

  it('takes at most 10 documents per call', async () => {
    const world = await aWorld();
    const { invoice } = await booked(world);
    const error = await domainErrorOf(
      mark(
        world,
        'invoice',
        Array.from({ length: 11 }, () => ({ id: invoice.id })),
      ),
    );
    expect(error.violations).toEqual([{ pointer: '/invoices', detail: expect.stringContaining('at most 10') }]);
    expect(ids(await exportInvoices(world.deps, { list: listOf(world), systemId: 'erp' }))).toEqual([invoice.id]);
  });

  it('checks system_id on every export', async () => {
    const world = await aWorld();
    for (const run of [
      () => exportShipments(world.deps, { list: listOf(world), systemId: '' }),
      () => exportThirdPartyShipments(world.deps, { list: listOf(world), systemId: '' }),
      () => exportInvoices(world.deps, { list: listOf(world), systemId: '' }),
      () => exportCreditNotes(world.deps, { list: listOf(world), systemId: '' }),
      () => exportAccountingEntries(world.deps, { list: listOf(world), systemId: '' }),
    ]) {
      expect((await domainErrorOf(run())).violations.map((v) => v.pointer)).toEqual(['/system_id']);
    }
  });
});
