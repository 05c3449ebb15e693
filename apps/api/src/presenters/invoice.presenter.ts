import { AccountingEntry, CreditNote, ExportMark, Invoice, TimelineEvent } from '@brand/core';
import { Static, Type, arrayOf, component, integer, nullable, optional } from '../http/wire-schema';
import { presentAccountingEntry } from './accounting-entry.presenter';
import { CreditNoteSchema, presentCreditNote } from './credit-note.presenter';
import { presentExportMarks } from './export-mark.presenter';
import { financialDocumentFields, financialDocumentStatus, presentFinancialLine } from './invoice-line.presenter';
import { presentTimeline } from './timeline.presenter';
import { money, percent } from './amounts';

export const InvoiceSchema = component(
  'Invoice',
  Type.Object({
    id: integer(),
    invoice_number: integer(),
    status: financialDocumentStatus,
    order_id: nullable(integer()),
    shipment_id: nullable(integer(), { description: 'The delivered shipment it bills (in-service invoicing)' }),
    ...financialDocumentFields,
    credit_notes: optional(arrayOf(CreditNoteSchema, 'On a single invoice: its credit notes, with their lines')),
  }),
);
export type InvoiceWire = Static<typeof InvoiceSchema>;

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
