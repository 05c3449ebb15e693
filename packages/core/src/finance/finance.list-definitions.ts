import { exportListDefinition } from '../documents/export-list-definition';
import { ListDefinition } from '../listing/list-query';
import { AccountingEntry, CreditNote, Invoice } from './finance.entities';

/** `GET /v10/invoices`. */
export const invoiceListDefinition: ListDefinition<Invoice> = {
  resource: 'invoices',
  fields: {
    id: { type: 'integer', get: (i) => i.id },
    invoice_number: { type: 'integer', get: (i) => i.invoiceNumber },
    status: { type: 'string', get: (i) => i.status },
    order_id: { type: 'integer', get: (i) => i.orderId },
    shipment_id: { type: 'integer', get: (i) => i.shipmentId },
    customer_id: { type: 'integer', get: (i) => i.customerId },
    currency: { type: 'string', get: (i) => i.currency },
    total: { type: 'decimal', scale: 2, get: (i) => i.total },
    booked_at: { type: 'datetime', get: (i) => i.bookedAt },
    created_at: { type: 'datetime', get: (i) => i.createdAt },
    updated_at: { type: 'datetime', get: (i) => i.updatedAt },
  },
  sortKeys: ['id', 'updated_at'],
  filterKeys: [
    'id',
    'invoice_number',
    'status',
    'order_id',
    'shipment_id',
    'customer_id',
    'currency',
    'total',
    'booked_at',
    'created_at',
    'updated_at',
  ],
  includes: ['lines'],
};
/** `GET /v10/invoices/export`: the invoice list's keys, walked by cursor only. */
export const invoiceExportListDefinition = exportListDefinition(invoiceListDefinition);

/** `GET /v10/credit-notes`. */
export const creditNoteListDefinition: ListDefinition<CreditNote> = {
  resource: 'credit_notes',
  fields: {
    id: { type: 'integer', get: (c) => c.id },
    credit_note_number: { type: 'integer', get: (c) => c.creditNoteNumber },
    status: { type: 'string', get: (c) => c.status },
    order_id: { type: 'integer', get: (c) => c.orderId },
    invoice_id: { type: 'integer', get: (c) => c.invoiceId },
    return_id: { type: 'integer', get: (c) => c.returnId },
    customer_id: { type: 'integer', get: (c) => c.customerId },
    currency: { type: 'string', get: (c) => c.currency },
    total: { type: 'decimal', scale: 2, get: (c) => c.total },
    booked_at: { type: 'datetime', get: (c) => c.bookedAt },
    created_at: { type: 'datetime', get: (c) => c.createdAt },
    updated_at: { type: 'datetime', get: (c) => c.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: [
    'id',
    'credit_note_number',
    'status',
    'order_id',
    'invoice_id',
    'return_id',
    'customer_id',
    'currency',
    'total',
    'booked_at',
    'created_at',
    'updated_at',
  ],
  includes: ['lines'],
};
/** `GET /v10/credit-notes/export`: the credit note list's keys, walked by cursor only. */
export const creditNoteExportListDefinition = exportListDefinition(creditNoteListDefinition);

/** `GET /v10/accounting-entries` (lines always come with the entry). */
export const accountingEntryListDefinition: ListDefinition<AccountingEntry> = {
  resource: 'accounting_entries',
  fields: {
    id: { type: 'integer', get: (e) => e.id },
    entry_number: { type: 'integer', get: (e) => e.entryNumber },
    document_type: { type: 'string', get: (e) => e.documentType },
    document_id: { type: 'integer', get: (e) => e.documentId },
    date: { type: 'string', get: (e) => e.date },
    currency: { type: 'string', get: (e) => e.currency },
    created_at: { type: 'datetime', get: (e) => e.createdAt },
    updated_at: { type: 'datetime', get: (e) => e.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'entry_number', 'document_type', 'document_id', 'date', 'currency', 'created_at', 'updated_at'],
  includes: [],
};
/** `GET /v10/accounting-entries/export`: the accounting entry list's keys, walked by cursor only. */
export const accountingEntryExportListDefinition = exportListDefinition(accountingEntryListDefinition, []);
