import {
  AccountingEntry,
  AccountingEntryRepository,
  AccountingLine,
  CreditNote,
  CreditNoteRepository,
  FinanceRepositories,
  FinancialDocumentStatus,
  FinancialLine,
  Invoice,
  InvoiceRepository,
} from '@brand/core';
import { Insertable, Selectable } from 'kysely';
import { fetchList, ListColumns } from '../../listing/list-sql';
import {
  AccountingEntriesTable,
  CreditNoteLinesTable,
  CreditNotesTable,
  InvoiceLinesTable,
  InvoicesTable,
} from '../../tables/orders.tables';
import { selectInChunks, unique } from '../batches';
import { Executor, fromFlag, RepositoryFactories, toFlag } from '../executor';
import { fromJson, toJson, toNullableNumber } from '../json-columns';
import { exportScopeSql, sortById } from '../documents/document-sql';
import { documentStore } from '../documents/document-store';

const INVOICE_COLUMNS: ListColumns = {
  id: { column: 'invoices.id', type: 'integer' },
  invoice_number: { column: 'invoices.invoice_number', type: 'integer' },
  status: { column: 'invoices.status', type: 'string' },
  order_id: { column: 'invoices.order_id', type: 'integer' },
  shipment_id: { column: 'invoices.shipment_id', type: 'integer' },
  customer_id: { column: 'invoices.customer_id', type: 'integer' },
  currency: { column: 'invoices.currency', type: 'string' },
  total: { column: 'invoices.total', type: 'decimal' },
  booked_at: { column: 'invoices.booked_at', type: 'datetime' },
  created_at: { column: 'invoices.created_at', type: 'datetime' },
  updated_at: { column: 'invoices.updated_at', type: 'datetime' },
};

const CREDIT_NOTE_COLUMNS: ListColumns = {
  id: { column: 'credit_notes.id', type: 'integer' },
  credit_note_number: { column: 'credit_notes.credit_note_number', type: 'integer' },
  status: { column: 'credit_notes.status', type: 'string' },
  order_id: { column: 'credit_notes.order_id', type: 'integer' },
  invoice_id: { column: 'credit_notes.invoice_id', type: 'integer' },
  return_id: { column: 'credit_notes.return_id', type: 'integer' },
  customer_id: { column: 'credit_notes.customer_id', type: 'integer' },
  currency: { column: 'credit_notes.currency', type: 'string' },
  total: { column: 'credit_notes.total', type: 'decimal' },
  booked_at: { column: 'credit_notes.booked_at', type: 'datetime' },
  created_at: { column: 'credit_notes.created_at', type: 'datetime' },
  updated_at: { column: 'credit_notes.updated_at', type: 'datetime' },
};

const ACCOUNTING_ENTRY_COLUMNS: ListColumns = {
  id: { column: 'accounting_entries.id', type: 'integer' },
  entry_number: { column: 'accounting_entries.entry_number', type: 'integer' },
  document_type: { column: 'accounting_entries.document_type', type: 'string' },
  document_id: { column: 'accounting_entries.document_id', type: 'integer' },
  date: { column: 'accounting_entries.date', type: 'string' },
  currency: { column: 'accounting_entries.currency', type: 'string' },
  created_at: { column: 'accounting_entries.created_at', type: 'datetime' },
  updated_at: { column: 'accounting_entries.updated_at', type: 'datetime' },
};

/** Columns shared by invoices and credit notes that an upsert overwrites. */
const FINANCIAL_UPDATE_COLUMNS = [
  'status',
  'order_id',
  'customer_id',
  'currency',
  'vat_rate_basis_points',
  'prices_include_vat',
  'net_total',
  'vat_total',
  'total',
  'booked_at',
  'updated_at',
] as const;

const INVOICE_UPDATE_COLUMNS = [
  ...FINANCIAL_UPDATE_COLUMNS,
  'shipment_id',
  'inventory_regulated',
] as const satisfies readonly (keyof InvoicesTable)[];
const CREDIT_NOTE_UPDATE_COLUMNS = [
  ...FINANCIAL_UPDATE_COLUMNS,
  'invoice_id',
  'return_id',
] as const satisfies readonly (keyof CreditNotesTable)[];
const FINANCIAL_LINE_UPDATE_COLUMNS = [
  'kind',
  'order_line_id',
  'variant_id',
  'sku',
  'description',
  'quantity',
  'unit_price',
  'discount_basis_points',
  'total_price',
] as const satisfies readonly (keyof InvoiceLinesTable & keyof CreditNoteLinesTable)[];

type FinancialDocument = Invoice | CreditNote;
type FinancialRow = Selectable<InvoicesTable> | Selectable<CreditNotesTable>;
type FinancialLineRow = Selectable<InvoiceLinesTable> | Selectable<CreditNoteLinesTable>;

const financialColumns = (d: FinancialDocument) => ({
  id: d.id,
  brand_id: d.brandId,
  status: d.status,
  order_id: d.orderId,
  customer_id: d.customerId,
  currency: d.currency,
  vat_rate_basis_points: d.vatRateBasisPoints,
  prices_include_vat: toFlag(d.pricesIncludeVat),
  net_total: d.netTotal,
  vat_total: d.vatTotal,
  total: d.total,
  booked_at: d.bookedAt,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
});

const lineColumns = (brandId: number, l: FinancialLine) => ({
  id: l.id,
  brand_id: brandId,
  kind: l.kind,
  order_line_id: l.orderLineId,
  variant_id: l.variantId,
  sku: l.sku,
  description: l.description,
  quantity: l.quantity,
  unit_price: l.unitPrice,
  discount_basis_points: l.discountBasisPoints,
  total_price: l.totalPrice,
});

const rowToLine = (r: FinancialLineRow): FinancialLine => ({
  id: Number(r.id),
  kind: r.kind as FinancialLine['kind'],
  orderLineId: toNullableNumber(r.order_line_id),
  variantId: toNullableNumber(r.variant_id),
  sku: r.sku,
  description: r.description,
  quantity: Number(r.quantity),
  unitPrice: Number(r.unit_price),
  discountBasisPoints: Number(r.discount_basis_points),
  totalPrice: Number(r.total_price),
});

const financialFromRow = (r: FinancialRow, lines: FinancialLineRow[]) => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  status: r.status as FinancialDocumentStatus,
  orderId: toNullableNumber(r.order_id),
  customerId: Number(r.customer_id),
  currency: r.currency,
  vatRateBasisPoints: Number(r.vat_rate_basis_points),
  pricesIncludeVat: fromFlag(r.prices_include_vat),
  netTotal: Number(r.net_total),
  vatTotal: Number(r.vat_total),
  total: Number(r.total),
  bookedAt: r.booked_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lines: lines.map(rowToLine),
});

export function invoiceRepository(executor: Executor): InvoiceRepository {
  const store = documentStore(executor, {
    table: 'invoices',
    linesTable: 'invoice_lines',
    parentColumn: 'invoice_id',
    documentType: 'invoice',
    columns: INVOICE_COLUMNS,
    updateColumns: INVOICE_UPDATE_COLUMNS,
    lineUpdateColumns: FINANCIAL_LINE_UPDATE_COLUMNS,
    toRow: (i: Invoice): Insertable<InvoicesTable> => ({
      ...financialColumns(i),
      invoice_number: i.invoiceNumber,
      shipment_id: i.shipmentId,
      inventory_regulated: toFlag(i.inventoryRegulated),
    }),
    linesToRows: (i: Invoice): Insertable<InvoiceLinesTable>[] =>
      i.lines.map((l) => ({ ...lineColumns(i.brandId, l), invoice_id: i.id })),
    fromRows: (r: Selectable<InvoicesTable>, lines: Selectable<InvoiceLinesTable>[]): Invoice => ({
      ...financialFromRow(r, lines),
      invoiceNumber: Number(r.invoice_number),
      shipmentId: toNullableNumber(r.shipment_id),
      inventoryRegulated: fromFlag(r.inventory_regulated),
    }),
  });
  return {
    save: (invoice) => store.save(invoice),
    findByIds: (brandId, ids) => store.find(brandId, 'id', ids),
    findByOrderIds: (brandId, orderIds) => store.find(brandId, 'order_id', orderIds),
    list: (brandId, query) => store.list(brandId, query, true),
    listForExport: (brandId, query, scope) => store.listForExport(brandId, query, scope, true),
  };
}

export function creditNoteRepository(executor: Executor): CreditNoteRepository {
  const store = documentStore(executor, {
    table: 'credit_notes',
    linesTable: 'credit_note_lines',
    parentColumn: 'credit_note_id',
    documentType: 'credit_note',
    columns: CREDIT_NOTE_COLUMNS,
    updateColumns: CREDIT_NOTE_UPDATE_COLUMNS,
    lineUpdateColumns: FINANCIAL_LINE_UPDATE_COLUMNS,
    toRow: (c: CreditNote): Insertable<CreditNotesTable> => ({
      ...financialColumns(c),
      credit_note_number: c.creditNoteNumber,
      invoice_id: c.invoiceId,
      return_id: c.returnId,
    }),
    linesToRows: (c: CreditNote): Insertable<CreditNoteLinesTable>[] =>
      c.lines.map((l) => ({ ...lineColumns(c.brandId, l), credit_note_id: c.id })),
    fromRows: (r: Selectable<CreditNotesTable>, lines: Selectable<CreditNoteLinesTable>[]): CreditNote => ({
      ...financialFromRow(r, lines),
      creditNoteNumber: Number(r.credit_note_number),
      invoiceId: toNullableNumber(r.invoice_id),
      returnId: toNullableNumber(r.return_id),
    }),
  });
  return {
    save: (creditNote) => store.save(creditNote),
    findByIds: (brandId, ids) => store.find(brandId, 'id', ids),
    findByInvoiceIds: (brandId, invoiceIds) => store.find(brandId, 'invoice_id', invoiceIds),
    findByReturnIds: (brandId, returnIds) => store.find(brandId, 'return_id', returnIds),
    list: (brandId, query) => store.list(brandId, query, true),
    listForExport: (brandId, query, scope) => store.listForExport(brandId, query, scope, true),
  };
}

const rowToEntry = (r: Selectable<AccountingEntriesTable>): AccountingEntry => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  entryNumber: Number(r.entry_number),
  documentType: r.document_type as AccountingEntry['documentType'],
  documentId: Number(r.document_id),
  date: r.date,
  currency: r.currency,
  lines: fromJson<AccountingLine[]>(r.lines, []),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function accountingEntryRepository(executor: Executor): AccountingEntryRepository {
  const { db, dialect } = executor;
  const base = (brandId: number) =>
    db.selectFrom('accounting_entries').selectAll().where('accounting_entries.brand_id', '=', brandId);
  return {
    async insert(e) {
      await db
        .insertInto('accounting_entries')
        .values({
          id: e.id,
          brand_id: e.brandId,
          entry_number: e.entryNumber,
          document_type: e.documentType,
          document_id: e.documentId,
          date: e.date,
          currency: e.currency,
          lines: toJson(e.lines),
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        })
        .execute();
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) => base(brandId).where('id', 'in', chunk).execute());
      return sortById(rows).map(rowToEntry);
    },
    async findByDocument(brandId, documentType, documentId) {
      const row = await base(brandId)
        .where('document_type', '=', documentType)
        .where('document_id', '=', documentId)
        .orderBy('id')
        .executeTakeFirst();
      return row ? rowToEntry(row) : null;
    },
    async list(brandId, query) {
      const { rows, total } = await fetchList(base(brandId), query, ACCOUNTING_ENTRY_COLUMNS, dialect);
      return { rows: rows.map(rowToEntry), total };
    },
    async listForExport(brandId, query, scope) {
      // Entries have no status: only the marks restrict them.
      const scoped = exportScopeSql(dialect, 'accounting_entries', 'accounting_entry', brandId, {
        ...scope,
        statuses: undefined,
      })!;
      const { rows } = await fetchList(
        base(brandId).where(scoped),
        { ...query, withTotal: false },
        ACCOUNTING_ENTRY_COLUMNS,
        dialect,
      );
      return { rows: rows.map(rowToEntry), total: null };
    },
  };
}

/** The finance module's repositories, as the unit of work makes them. */
export const financeRepositoryFactories: RepositoryFactories<FinanceRepositories> = {
  invoices: (executor) => invoiceRepository(executor),
  creditNotes: (executor) => creditNoteRepository(executor),
  accountingEntries: (executor) => accountingEntryRepository(executor),
};
