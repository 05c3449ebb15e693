import { AccountingEntry, CreditNote, ExportMark, FinancialDocumentStatus, TimelineEvent } from '@brand/core';
import { AccountingEntryWire, presentAccountingEntry } from './accounting-entry.presenter';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';
import { FinancialLineWire, presentFinancialLine } from './invoice-line.presenter';
import { TimelineEventWire, presentTimeline } from './timeline.presenter';
import { money, percent } from './amounts';

export interface CreditNoteWire {
  id: number;
  credit_note_number: number;
  status: FinancialDocumentStatus;
  order_id: number | null;
  invoice_id: number | null;
  return_id: number | null;
  customer_id: number;
  currency: string;
  vat_rate: number;
  prices_include_vat: boolean;
  net_total: number;
  vat_total: number;
  total: number;
  booked_at: string | null;
  created_at: string;
  updated_at: string;
  /** Absent only on credit notes embedded in another document. */
  exports?: ExportMarkWire[];
  lines?: FinancialLineWire[];
  /** On a single credit note. */
  timeline?: TimelineEventWire[];
  /** On a single credit note: the entry its booking wrote, or null while it is a draft. */
  accounting_entry?: AccountingEntryWire | null;
}

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
