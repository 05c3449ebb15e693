import { ExportScope } from '../documents/document.entities';
import { ListQuery, ListRows } from '../listing/list-query';
import { AccountingEntry, CreditNote, Invoice } from './finance.entities';

/** Invoices with their lines; reads inside a Postgres write transaction lock the rows. */
export interface InvoiceRepository {
  save(invoice: Invoice): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<Invoice[]>;
  findByOrderIds(brandId: number, orderIds: number[]): Promise<Invoice[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<Invoice>>;
  listForExport(brandId: number, query: ListQuery, scope: ExportScope): Promise<ListRows<Invoice>>;
}

/** Credit notes with their lines, by id, by invoice or by return, for lists and export walks. */
export interface CreditNoteRepository {
  save(creditNote: CreditNote): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<CreditNote[]>;
  findByInvoiceIds(brandId: number, invoiceIds: number[]): Promise<CreditNote[]>;
  findByReturnIds(brandId: number, returnIds: number[]): Promise<CreditNote[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<CreditNote>>;
  listForExport(brandId: number, query: ListQuery, scope: ExportScope): Promise<ListRows<CreditNote>>;
}

/** Accounting entries, by id or by the document they book, for lists and export walks. */
export interface AccountingEntryRepository {
  insert(entry: AccountingEntry): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<AccountingEntry[]>;
  findByDocument(
    brandId: number,
    documentType: AccountingEntry['documentType'],
    documentId: number,
  ): Promise<AccountingEntry | null>;
  list(brandId: number, query: ListQuery): Promise<ListRows<AccountingEntry>>;
  listForExport(brandId: number, query: ListQuery, scope: ExportScope): Promise<ListRows<AccountingEntry>>;
}

/** The finance module's repositories; the declaration below adds them to `Repositories`. */
export interface FinanceRepositories {
  invoices: InvoiceRepository;
  creditNotes: CreditNoteRepository;
  accountingEntries: AccountingEntryRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends FinanceRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The finance module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    invoices: true;
    invoice_lines: true;
    credit_notes: true;
    credit_note_lines: true;
    accounting_entries: true;
  }
}
