import { AccountingEntry, CreditNote, ExportMark, FinancialDocumentStatus, Invoice, TimelineEvent } from '@brand/core';
import { AccountingEntryWire, presentAccountingEntry } from './accounting-entry.presenter';
import { CreditNoteWire, presentCreditNote } from './credit-note.presenter';
import { ExportMarkWire, presentExportMarks } from './export-mark.presenter';
import { FinancialLineWire, presentFinancialLine } from './invoice-line.presenter';
import { TimelineEventWire, presentTimeline } from './timeline.presenter';
import { money, percent } from './amounts';

export interface InvoiceWire {
  id: number;
  invoice_number: number;
  status: FinancialDocumentStatus;
  order_id: number | null;
  shipment_id: number | null;
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
  /** Absent only on invoices embedded in another document. */
  exports?: ExportMarkWire[];
  lines?: FinancialLineWire[];
  /** On a single invoice. */
  timeline?: TimelineEventWire[];
  /** On a single invoice: the entry its booking wrote, or null while it is a draft. */
  accounting_entry?: AccountingEntryWire | null;
  /** On a single invoice: its credit notes, with their lines. */
  credit_notes?: CreditNoteWire[];
}

/** An invoice; `exports` when given, `lines` when asked for. */
export function presentInvoice(
  invoice: Invoice,
  options: { includeLines: boolean; exports?: readonly ExportMark[] },
): InvoiceWire {
  const wire: InvoiceWire = {
    id: invoice.id,
    invoice_number: invoice.invoiceNumber,
    status: invoice.status,
    order_id: invoice.orderId,
    shipment_id: invoice.shipmentId,
    customer_id: invoice.customerId,
    currency: invoice.currency,
    vat_rate: percent(invoice.vatRateBasisPoints),
    prices_include_vat: invoice.pricesIncludeVat,
    net_total: money(invoice.netTotal),
    vat_total: money(invoice.vatTotal),
    total: money(invoice.total),
    booked_at: invoice.bookedAt,
    created_at: invoice.createdAt,
    updated_at: invoice.updatedAt,
  };
  if (options.exports) wire.exports = presentExportMarks(options.exports);
  if (options.includeLines) wire.lines = invoice.lines.map(presentFinancialLine);
  return wire;
}

/** `GET /v10/invoices/{id}`: the invoice with its lines, exports, timeline, accounting entry and credit notes. */
export function presentInvoiceDetail(detail: {
  invoice: Invoice;
  exports: readonly ExportMark[];
  timeline: readonly TimelineEvent[];
  accountingEntry: AccountingEntry | null;
  creditNotes: readonly CreditNote[];
}): InvoiceWire {
  const wire = presentInvoice(detail.invoice, { includeLines: true, exports: detail.exports });
  wire.timeline = presentTimeline(detail.timeline);
  wire.accounting_entry = detail.accountingEntry ? presentAccountingEntry(detail.accountingEntry) : null;
  wire.credit_notes = detail.creditNotes.map((c) => presentCreditNote(c, { includeLines: true }));
  return wire;
}
