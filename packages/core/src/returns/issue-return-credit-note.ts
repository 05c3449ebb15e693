import { recordEvents } from '../events/record-events';
import { CreditNote, FinancialLine } from '../finance/finance.entities';
import { divideRounded, documentTotals, lineTotal } from '../shared/money';
import { Repositories } from '../shared/unit-of-work.ports';
import { Return } from './return.entities';

/** The labels of the fee lines a return's credit note carries (negative amounts). */
export const RETURN_FEE_LABEL = 'Return fee';
export const EXCHANGE_FEE_LABEL = 'Exchange fee';

/**
 * A fee charged incl. VAT in the return's VAT basis: as it is for gross (B2C) prices, and with
 * the VAT taken out (fee / (1 + rate), half up to the minor unit) for net prices, so that the
 * credit note's total comes out at "goods incl. VAT less the fee incl. VAT".
 */
export function feeInReturnBasis(
  feeInclVat: number,
  ret: Pick<Return, 'pricesIncludeVat' | 'vatRateBasisPoints'>,
): number {
  if (ret.pricesIncludeVat) return feeInclVat;
  return divideRounded(BigInt(feeInclVat) * 10_000n, 10_000n + BigInt(ret.vatRateBasisPoints));
}

/** What issuing a return's credit note writes: the note, its number, and its event and timeline entry. */
type IssueReturnCreditNoteRepositories = Pick<
  Repositories,
  | 'creditNotes'
  | 'documentNumbers'
  | 'events'
  | 'ids'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * Drafts the credit note refunding a return's received pieces, inside the caller's transaction:
 * one product line per return line with pieces received (received × the line's unit price less
 * its discount, in the return's VAT basis), and the return's fees as `fee` lines with negative
 * totals ("Return fee", "Exchange fee"). A credit note never goes below zero: when the fees are
 * larger than the goods, the fee lines are capped (the return fee first) so the total is 0 —
 * refusing the receipt instead would leave the warehouse unable to report what arrived.
 * The return is not changed; the caller records the receipt. Timeline: `created` on the note;
 * announces `credit_note.created` with the note as saved. (`draftReturnCreditNote`, then
 * `saveReturnCreditNote`.)
 */
export async function issueReturnCreditNote(
  tx: IssueReturnCreditNoteRepositories,
  input: { ret: Return; userId: number | null; at: string },
): Promise<CreditNote> {
  const creditNote = await draftReturnCreditNote(tx, input);
  await saveReturnCreditNote(tx, { ...input, creditNote });
  return creditNote;
}

/**
 * The credit note `issueReturnCreditNote` issues, built and numbered (its ids and number drawn)
 * but not saved: for a caller that names it before it is saved (a receipt's timeline entry says
 * which note it drafted) and saves it with `saveReturnCreditNote` in the same transaction.
 */
export async function draftReturnCreditNote(
  tx: Pick<Repositories, 'documentNumbers' | 'ids'>,
  input: { ret: Return; at: string },
): Promise<CreditNote> {
  const { ret, at } = input;
  const received = ret.lines.filter((l) => l.receivedQuantity > 0);
  const products = received.map((l) => ({
    line: l,
    totalPrice: lineTotal(l.receivedQuantity, l.unitPrice, l.discountBasisPoints),
  }));
  let room = products.reduce((sum, p) => sum + p.totalPrice, 0);
  const fees: Array<{ label: string; amount: number }> = [];
  for (const [label, feeInclVat] of [
    [RETURN_FEE_LABEL, ret.returnFeeInclVat],
    [EXCHANGE_FEE_LABEL, ret.exchangeFeeInclVat],
  ] as const) {
    if (feeInclVat === null || feeInclVat <= 0) continue;
    const amount = Math.min(feeInReturnBasis(feeInclVat, ret), room);
    if (amount <= 0) continue;
    room -= amount;
    fees.push({ label, amount });
  }
  const lineIds = await tx.ids.next('credit_note_lines', products.length + fees.length);
  const productLines: FinancialLine[] = products.map(({ line: l, totalPrice }, i) => ({
    id: lineIds[i]!,
    kind: 'product',
    orderLineId: l.orderLineId,
    variantId: l.variantId,
    sku: l.sku,
    description: l.productName,
    quantity: l.receivedQuantity,
    unitPrice: l.unitPrice,
    discountBasisPoints: l.discountBasisPoints,
    totalPrice,
  }));
  const feeLines: FinancialLine[] = fees.map(({ label, amount }, i) => ({
    id: lineIds[products.length + i]!,
    kind: 'fee',
    orderLineId: null,
    variantId: null,
    sku: null,
    description: label,
    quantity: 1,
    unitPrice: -amount,
    discountBasisPoints: 0,
    totalPrice: -amount,
  }));
  const lines = [...productLines, ...feeLines];
  const totals = documentTotals(
    lines.reduce((sum, l) => sum + l.totalPrice, 0),
    ret.vatRateBasisPoints,
    ret.pricesIncludeVat,
  );
  const [id] = await tx.ids.next('credit_notes');
  const creditNote: CreditNote = {
    id: id!,
    brandId: ret.brandId,
    creditNoteNumber: await tx.documentNumbers.next(ret.brandId, 'credit_note'),
    status: 'draft',
    orderId: ret.orderId,
    customerId: ret.customerId,
    currency: ret.currency,
    vatRateBasisPoints: ret.vatRateBasisPoints,
    pricesIncludeVat: ret.pricesIncludeVat,
    ...totals,
    invoiceId: null,
    returnId: ret.id,
    bookedAt: null,
    createdAt: at,
    updatedAt: at,
    lines,
  };
  return creditNote;
}

/** Saves a credit note of `draftReturnCreditNote` and announces `credit_note.created` (its timeline's `created`). */
export async function saveReturnCreditNote(
  tx: IssueReturnCreditNoteRepositories,
  input: { ret: Return; creditNote: CreditNote; userId: number | null; at: string },
): Promise<void> {
  const { ret, creditNote, userId, at } = input;
  await tx.creditNotes.save(creditNote);
  const pieces = creditNote.lines.filter((l) => l.kind === 'product').reduce((sum, l) => sum + l.quantity, 0);
  const fees = creditNote.lines.some((l) => l.kind === 'fee');
  await recordEvents(tx, ret.brandId, at, [
    {
      type: 'credit_note.created',
      object: creditNote,
      timeline: {
        note: `refunds ${pieces} ${pieces === 1 ? 'piece' : 'pieces'} received on return ${ret.rma}${fees ? ' less its fees' : ''}`,
        userId,
      },
    },
  ]);
}
