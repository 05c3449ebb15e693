import { Repositories } from '../shared/unit-of-work.ports';
import { AccountingEntry, AccountingLine, CreditNote, Invoice } from './finance.entities';

/**
 * The balanced entry that books an invoice (receivable on the debit side; revenue and VAT on the
 * credit side) or a credit note (the same, reversed). Zero lines are left out; an all-zero
 * document still gets an entry (with no lines), so every booked document has exactly one.
 */
export async function writeAccountingEntry(
  tx: Pick<Repositories, 'accountingEntries' | 'documentNumbers' | 'ids'>,
  document: { type: 'invoice'; invoice: Invoice } | { type: 'credit_note'; creditNote: CreditNote },
  at: string,
): Promise<AccountingEntry> {
  const doc = document.type === 'invoice' ? document.invoice : document.creditNote;
  const side = (amount: number, debitSide: boolean): Pick<AccountingLine, 'debit' | 'credit'> =>
    debitSide === amount >= 0 ? { debit: Math.abs(amount), credit: 0 } : { debit: 0, credit: Math.abs(amount) };
  const isInvoice = document.type === 'invoice';
  const lines: AccountingLine[] = [
    { account: 'accounts_receivable' as const, ...side(doc.total, isInvoice) },
    { account: 'revenue' as const, ...side(doc.netTotal, !isInvoice) },
    { account: 'vat_payable' as const, ...side(doc.vatTotal, !isInvoice) },
  ].filter((l) => l.debit !== 0 || l.credit !== 0);
  const [id] = await tx.ids.next('accounting_entries');
  const entry: AccountingEntry = {
    id: id!,
    brandId: doc.brandId,
    entryNumber: await tx.documentNumbers.next(doc.brandId, 'accounting_entry'),
    documentType: document.type,
    documentId: doc.id,
    date: at.slice(0, 10),
    currency: doc.currency,
    lines,
    createdAt: at,
    updatedAt: at,
  };
  await tx.accountingEntries.insert(entry);
  return entry;
}
