import {
  CreditNote,
  bookCreditNote,
  bookInvoice,
  creditInvoice,
  getCreditNote,
  getInvoice,
  listCreditNotes,
} from '../src';
import { World, aWorld, anInvoice, anOrder, domainErrorOf, listOf } from './orders-fixtures';

/** A booked invoice of 3 × TEE-M at 10.00 and 2 × CAP-S at 5.00 (EAN 4006), shipping 4.95: net 44.95, VAT 11.24, total 56.19. */
async function aBookedInvoice(world: World) {
  const order = await anOrder(world, {
    lines: [
      { variantId: 11, sku: 'TEE-M', quantity: 3, unitPrice: 1000 },
      { variantId: 12, sku: 'CAP-S', ean: '4006', quantity: 2, unitPrice: 500 },
    ],
    shippingCost: 495,
  });
  const draft = await anInvoice(world, order);
  return (await bookInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: draft.id })).invoice;
}

const summary = (note: CreditNote) => note.lines.map((l) => [l.kind, l.sku, l.quantity, l.totalPrice]);

describe('crediting an invoice', () => {
  it("credits everything, shipping included, at the invoice's prices when no lines are given", async () => {
    const world = await aWorld();
    const invoice = await aBookedInvoice(world);
    expect(invoice).toMatchObject({ netTotal: 4495, vatTotal: 1124, total: 5619 });

    const note = await creditInvoice(world.deps, { brandId: world.brand.id, userId: 3, invoiceId: invoice.id });

    expect(note).toMatchObject({
      status: 'draft',
      invoiceId: invoice.id,
      orderId: invoice.orderId,
      customerId: invoice.customerId,
      returnId: null,
      currency: 'EUR',
      netTotal: 4495,
      vatTotal: 1124,
      total: 5619,
      creditNoteNumber: 1,
    });
    expect(summary(note)).toEqual([
      ['product', 'TEE-M', 3, 3000],
      ['product', 'CAP-S', 2, 1000],
      ['shipping', null, 1, 495],
    ]);
    const detail = await getInvoice(world.deps, { brandId: world.brand.id, invoiceId: invoice.id });
    expect(detail.creditNotes.map((c) => c.id)).toEqual([note.id]);
    expect(detail.timeline.map((e) => e.kind)).toEqual(['created', 'booked', 'credited']);
  });

  it('credits some pieces by SKU or EAN and leaves the shipping on the invoice', async () => {
    const world = await aWorld();
    const invoice = await aBookedInvoice(world);
    const note = await creditInvoice(world.deps, {
      brandId: world.brand.id,
      userId: null,
      invoiceId: invoice.id,
      lines: [
        { sku: 'TEE-M', quantity: 1 },
        { ean: '4006', quantity: 2 },
      ],
    });
    expect(summary(note)).toEqual([
      ['product', 'TEE-M', 1, 1000],
      ['product', 'CAP-S', 2, 1000],
    ]);
    expect(note).toMatchObject({ netTotal: 2000, vatTotal: 500, total: 2500 });
  });

  it('credits the rest later, and the parts add up to the invoice to the cent', async () => {
    const world = await aWorld();
    // 3 × 10.03: net 30.09, VAT 7.52 (7.5225). One piece alone rounds to 2.51, two to 5.02: 7.53 in parts.
    const order = await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 3, unitPrice: 1003 }] });
    const invoice = (
      await bookInvoice(world.deps, {
        brandId: world.brand.id,
        userId: null,
        invoiceId: (await anInvoice(world, order)).id,
      })
    ).invoice;
    const first = await creditInvoice(world.deps, {
      brandId: world.brand.id,
      userId: null,
      invoiceId: invoice.id,
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });
    const rest = await creditInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: invoice.id });

    expect(summary(rest)).toEqual([['product', 'TEE-M', 2, 2006]]);
    expect(first.vatTotal + rest.vatTotal).toBe(invoice.vatTotal);
    expect(first.netTotal + rest.netTotal).toBe(invoice.netTotal);
    expect(first.total + rest.total).toBe(invoice.total);
  });

  it('refuses to credit more than invoiced less what other credit notes took, naming the line, and creates nothing', async () => {
    const world = await aWorld();
    const invoice = await aBookedInvoice(world);
    await creditInvoice(world.deps, {
      brandId: world.brand.id,
      userId: null,
      invoiceId: invoice.id,
      lines: [{ sku: 'TEE-M', quantity: 2 }],
    });

    const error = await domainErrorOf(
      creditInvoice(world.deps, {
        brandId: world.brand.id,
        userId: null,
        invoiceId: invoice.id,
        lines: [
          { ean: '4006', quantity: 1 },
          { sku: 'TEE-M', quantity: 2 },
        ],
      }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.violations).toEqual([
      { pointer: '/lines/1/quantity', detail: expect.stringContaining('only 1 of the 3 invoiced are left') },
    ]);
    expect((await listCreditNotes(world.deps, listOf(world))).page.items).toHaveLength(1);
  });

  it('counts a SKU asked for on two lines together against what is left', async () => {
    const world = await aWorld();
    const invoice = await aBookedInvoice(world);
    const error = await domainErrorOf(
      creditInvoice(world.deps, {
        brandId: world.brand.id,
        userId: null,
        invoiceId: invoice.id,
        lines: [
          { sku: 'CAP-S', quantity: 1 },
          { ean: '4006', quantity: 2 },
        ],
      }),
    );
    expect(error.violations.map((v) => v.pointer)).toEqual(['/lines/1/quantity']);
  });

  it('names a SKU or EAN that is not on the invoice and a quantity that is not a positive whole number', async () => {
    const world = await aWorld();
    const invoice = await aBookedInvoice(world);
    const error = await domainErrorOf(
      creditInvoice(world.deps, {
        brandId: world.brand.id,
        userId: null,
        invoiceId: invoice.id,
        lines: [
          { sku: 'NOPE', quantity: 1 },
          { ean: '999', quantity: 1 },
          { sku: 'TEE-M', quantity: 0 },
          { quantity: 1 },
        ],
      }),
    );
    expect(error.violations.map((v) => v.pointer)).toEqual([
      '/lines/0/sku',
      '/lines/1/ean',
      '/lines/2/quantity',
      '/lines/3/sku',
    ]);
    expect(error.violations[0]!.detail).toContain('SKU NOPE is not on invoice');
  });

  it('refuses a second full credit once everything is credited', async () => {
    const world = await aWorld();
    const invoice = await aBookedInvoice(world);
    await creditInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: invoice.id });
    const error = await domainErrorOf(
      creditInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: invoice.id }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('nothing left to credit');
  });

  it('credits only booked invoices', async () => {
    const world = await aWorld();
    const draft = await anInvoice(
      world,
      await anOrder(world, { lines: [{ variantId: 11, sku: 'TEE-M', quantity: 1, unitPrice: 1000 }] }),
    );
    const error = await domainErrorOf(
      creditInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: draft.id }),
    );
    expect(error.code).toBe('invalid_state_transition');
    expect(
      (await domainErrorOf(creditInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: 404 }))).code,
    ).toBe('not_found');
  });
});

describe('booking a credit note', () => {
  it("writes the invoice's entry reversed: revenue and VAT debited, the receivable credited", async () => {
    const world = await aWorld();
    const invoice = await aBookedInvoice(world);
    const draft = await creditInvoice(world.deps, {
      brandId: world.brand.id,
      userId: null,
      invoiceId: invoice.id,
      lines: [{ sku: 'TEE-M', quantity: 1 }],
    });
    world.clock.advance(86_400_000);

    const { creditNote, accountingEntry } = await bookCreditNote(world.deps, {
      brandId: world.brand.id,
      userId: 4,
      creditNoteId: draft.id,
    });

    expect(creditNote).toMatchObject({
      status: 'booked',
      bookedAt: world.clock.now(),
      netTotal: 1000,
      vatTotal: 250,
      total: 1250,
    });
    expect(accountingEntry).toMatchObject({
      documentType: 'credit_note',
      documentId: draft.id,
      date: '2026-06-02',
      entryNumber: 2,
    });
    expect(accountingEntry.lines).toEqual([
      { account: 'accounts_receivable', debit: 0, credit: 1250 },
      { account: 'revenue', debit: 1000, credit: 0 },
      { account: 'vat_payable', debit: 250, credit: 0 },
    ]);
    const detail = await getCreditNote(world.deps, { brandId: world.brand.id, creditNoteId: draft.id });
    expect(detail.accountingEntry).toEqual(accountingEntry);
    expect(detail.timeline.map((e) => e.kind)).toEqual(['created', 'booked']);
  });

  it('refuses to book a credit note twice', async () => {
    const world = await aWorld();
    const invoice = await aBookedInvoice(world);
    const draft = await creditInvoice(world.deps, { brandId: world.brand.id, userId: null, invoiceId: invoice.id });
    await bookCreditNote(world.deps, { brandId: world.brand.id, userId: null, creditNoteId: draft.id });
    expect(
      (
        await domainErrorOf(
          bookCreditNote(world.deps, { brandId: world.brand.id, userId: null, creditNoteId: draft.id }),
        )
      ).code,
    ).toBe('invalid_state_transition');
    expect(
      (await domainErrorOf(bookCreditNote(world.deps, { brandId: world.brand.id, userId: null, creditNoteId: 404 })))
        .code,
    ).toBe('not_found');
  });
});
