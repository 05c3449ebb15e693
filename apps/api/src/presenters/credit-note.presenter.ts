import { AccountingEntry, CreditNote, ExportMark, TimelineEvent } from '@brand/core';
import { Static, Type, component, integer, nullable } from '../http/wire-schema';
import { presentAccountingEntry } from './accounting-entry.presenter';
import { presentExportMarks } from './export-mark.presenter';
import { financialDocumentFields, financialDocumentStatus, presentFinancialLine } from './invoice-line.presenter';
import { presentTimeline } from './timeline.presenter';
import { money, percent } from './amounts';

export const CreditNoteSchema = component(
  'CreditNote',
  Type.Object({
    id: integer(),
    credit_note_number: integer(),
    status: financialDocumentStatus,
    order_id: nullable(integer()),
    invoice_id: nullable(integer(), { description: 'The invoice it credits' }),
    return_id: nullable(integer(), { description: 'The return it refunds' }),
    ...financialDocumentFields,
  }),
);
export type CreditNoteWire = Static<typeof CreditNoteSchema>;

/** A credit note; `exports` when given, `lines` when asked for. */
export function presentCreditNote(
  creditNote: CreditNote,
  options: { includeLines: boolean; exports?: readonly ExportMark[] },
): CreditNoteWire {
  const wire: CreditNoteWire = {
    id: creditNote.id,
    credit_note_number: creditNote.creditNoteNumber,
    status: creditNote.status,
    order_id: creditNote.orderId,
    invoice_id: creditNote.invoiceId,
    return_id: creditNote.returnId,
    customer_id: creditNote.customerId,
    currency: creditNote.currency,
    vat_rate: percent(creditNote.vatRateBasisPoints),
    prices_include_vat: creditNote.pricesIncludeVat,
    net_total: money(creditNote.netTotal),
    vat_total: money(creditNote.vatTotal),
    total: money(creditNote.total),
    booked_at: creditNote.bookedAt,
    created_at: creditNote.createdAt,
    updated_at: creditNote.updatedAt,
  };
  if (options.exports) wire.exports = presentExportMarks(options.exports);
  if (options.includeLines) wire.lines = creditNote.lines.map(presentFinancialLine);
  return wire;
}

/** `GET /v10/credit-notes/{id}`: the credit note with its lines, exports, timeline and accounting entry. */
export function presentCreditNoteDetail(detail: {
  creditNote: CreditNote;
  exports: readonly ExportMark[];
  timeline: readonly TimelineEvent[];
  accountingEntry: AccountingEntry | null;
}): CreditNoteWire {
  const wire = presentCreditNote(detail.creditNote, { includeLines: true, exports: detail.exports });
  wire.timeline = presentTimeline(detail.timeline);
  wire.accounting_entry = detail.accountingEntry ? presentAccountingEntry(detail.accountingEntry) : null;
  return wire;
}
