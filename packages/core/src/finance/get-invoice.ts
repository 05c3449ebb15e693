import { ExportMark, TimelineEvent } from '../documents/document.entities';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AccountingEntry, CreditNote, Invoice } from './finance.entities';
import { settleAll } from '../shared/settle-all';

/**
 * What `getInvoice` returns: the invoice, its export marks, its timeline, the accounting entry that
 * booked it and its credit notes.
 */
export interface InvoiceDetail {
  invoice: Invoice;
  exports: ExportMark[];
  timeline: TimelineEvent[];
  /** The entry that booked it; null while it is a draft. */
  accountingEntry: AccountingEntry | null;
  /** Credit notes of this invoice (draft and booked), oldest first. */
  creditNotes: CreditNote[];
}

/** `GET /v10/invoices/{id}`: the invoice with its marks, timeline, accounting entry and credit notes. */
export async function getInvoice(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'accountingEntries' | 'creditNotes' | 'exportMarks' | 'invoices' | 'timeline'>>;
  },
  input: { brandId: number; invoiceId: number },
): Promise<InvoiceDetail> {
  return deps.uow.read(async (repos) => {
    const [invoice] = await repos.invoices.findByIds(input.brandId, [input.invoiceId]);
    if (!invoice) throw DomainError.notFound('invoice', input.invoiceId);
    const [exports, timeline, accountingEntry, creditNotes] = await settleAll([
      repos.exportMarks.marksOf(input.brandId, 'invoice', [invoice.id]),
      repos.timeline.eventsOf(input.brandId, 'invoice', invoice.id),
      repos.accountingEntries.findByDocument(input.brandId, 'invoice', invoice.id),
      repos.creditNotes.findByInvoiceIds(input.brandId, [invoice.id]),
    ]);
    return { invoice, exports, timeline, accountingEntry, creditNotes };
  });
}
