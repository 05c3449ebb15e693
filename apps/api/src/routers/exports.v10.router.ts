import {
  ExportMark,
  ListRequest,
  MarkItem,
  MarkableDocumentType,
  Principal,
  accountingEntryExportListDefinition,
  creditNoteExportListDefinition,
  exportAccountingEntries,
  exportCreditNotes,
  exportInvoices,
  exportOrders,
  exportShipments,
  invoiceExportListDefinition,
  listAccountingEntries,
  listCreditNotes,
  listInvoices,
  listOrders,
  listShipments,
  markDocumentsExported,
  markOrdersExported,
  orderExportListDefinition,
  shipmentExportListDefinition,
} from '@brand/core';
import {
  AccountingEntriesMarkAsExportedDto,
  CreditNotesMarkAsExportedDto,
  ExportQueryDto,
  FinancialDocumentExportQueryDto,
  InvoicesMarkAsExportedDto,
  OrderExportQueryDto,
  OrdersMarkAsExportedDto,
  ShipmentExportQueryDto,
  ShipmentsMarkAsExportedDto,
  exportScopeInput,
  flag,
  toMarkItem,
  toOrderMarks,
} from '../dtos/export.dto';
import { Surface } from '../http/route';
import { listRequest, listRequestForIds, listResponse } from '../listing/list-request';
import { exportPageOf, markedOf } from '../http/wire-schema';
import { AccountingEntrySchema, presentAccountingEntry } from '../presenters/accounting-entry.presenter';
import { CreditNoteSchema, presentCreditNote } from '../presenters/credit-note.presenter';
import { InvoiceSchema, presentInvoice } from '../presenters/invoice.presenter';
import { OrderSchema, presentOrder } from '../presenters/order.presenter';
import { ShipmentSchema, presentShipment } from '../presenters/shipment.presenter';
import { RouterDeps } from './router-deps';

const EXPORT_FLOW =
  'Walk by cursor until has_more is false (no total, no page), import, then confirm with mark-as-exported; documents not marked keep appearing. ' +
  'Each system_id exports independently; not_exported_since re-exports documents marked after it. filter_groups filter on created_at and updated_at (and the list keys).';
const MARK_RULES =
  'At most 10 items. An unknown id, or one of another brand, is a 422 naming its item, and then nothing of the call is marked. ' +
  "Marking again is harmless (the latest time and note are kept). The note shows in the document's timeline. " +
  'Answers with the marked documents, by id, with their exports.';

/** Marks documents of a type, then shows them as they are now through `list`. */
async function markThenList<T extends { id: number }, W>(
  deps: RouterDeps,
  principal: Principal,
  mark: { documentType: MarkableDocumentType; arrayKey: string; idKey: string; items: MarkItem[] },
  list: (
    deps: RouterDeps,
    request: ListRequest,
  ) => Promise<{ page: { items: T[] }; exports: Map<number, ExportMark[]> }>,
  present: (item: T, exports: Map<number, ExportMark[]>) => W,
): Promise<W[]> {
  await markDocumentsExported(deps, { brandId: principal.brandId, userId: principal.userId, ...mark });
  const result = await list(
    deps,
    listRequestForIds(
      principal.brandId,
      mark.items.map((item) => item.documentId),
    ),
  );
  return result.page.items.map((item) => present(item, result.exports));
}

/**
 * The export interface of the v10 documents: `GET /v10/<documents>/export` and
 * `POST /v10/<documents>/mark-as-exported` for orders, shipments, invoices, credit notes and
 * accounting entries. Mounted before the routers with `/v10/<documents>/:id`.
 */
export function exportsV10Router(deps: RouterDeps): Surface<'current'> {
  return new Surface('v10-exports', 'current', ['/v10'])
    .route({
      method: 'get',
      path: '/v10/orders/export',
      summary: 'Export orders',
      description:
        `Approved orders this system_id has not marked exported; include_not_approved=1 adds drafts, include_cancelled=1 cancelled and include_archived=1 archived orders. ` +
        `includes[]=lines adds the lines. ${EXPORT_FLOW}`,
      tag: 'Exports',
      scopes: ['orders:read'],
      list: orderExportListDefinition,
      query: OrderExportQueryDto,
      status: 200,
      response: { description: 'A page of orders to export', schema: exportPageOf('orders', OrderSchema) },
      handler: async ({ principal, req, query }) => {
        const result = await exportOrders(deps, {
          list: await listRequest(req, principal.brandId, deps.cursors),
          ...exportScopeInput(query),
          includeNotApproved: flag(query.include_not_approved),
          includeCancelled: flag(query.include_cancelled),
          includeArchived: flag(query.include_archived),
        });
        const includeLines = result.query.includes.includes('lines');
        return listResponse('orders', result, orderExportListDefinition, deps.cursors, (order) =>
          presentOrder(order, { includeLines, exports: result.exports.get(order.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/orders/mark-as-exported',
      summary: 'Confirm exported orders',
      description:
        "Each item needs regulate_inventory: true takes the order's remaining pieces out of In stock (In stock 10 / Available 9 become 9 / 9) and archives it; " +
        'false leaves order and inventory as they are. regulate_inventory true is refused (422) for draft orders and when the brand invoices in the service. ' +
        MARK_RULES,
      tag: 'Exports',
      scopes: ['orders:write'],
      body: OrdersMarkAsExportedDto,
      status: 200,
      response: { description: 'The marked orders', schema: markedOf('orders', OrderSchema) },
      handler: async ({ principal, body }) => {
        await markOrdersExported(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          items: toOrderMarks(body),
        });
        const result = await listOrders(
          deps,
          listRequestForIds(
            principal.brandId,
            body.orders.map((item) => item.order_id),
          ),
        );
        return {
          orders: result.page.items.map((order) =>
            presentOrder(order, { includeLines: false, exports: result.exports.get(order.id) ?? [] }),
          ),
        };
      },
    })
    .route({
      method: 'get',
      path: '/v10/shipments/export',
      summary: 'Export shipments',
      description:
        `Open shipments this system_id has not marked exported; include_cancelled=1 and include_completed=1 add those. includes[]=lines adds the lines. ` +
        `The warehouse form of the same export is GET /3pl/shipments/export (marks are shared). ${EXPORT_FLOW}`,
      tag: 'Exports',
      scopes: ['fulfilment:read'],
      list: shipmentExportListDefinition,
      query: ShipmentExportQueryDto,
      status: 200,
      response: { description: 'A page of shipments to export', schema: exportPageOf('shipments', ShipmentSchema) },
      handler: async ({ principal, req, query }) => {
        const result = await exportShipments(deps, {
          list: await listRequest(req, principal.brandId, deps.cursors),
          ...exportScopeInput(query),
          includeCancelled: flag(query.include_cancelled),
          includeCompleted: flag(query.include_completed),
        });
        const includeLines = result.query.includes.includes('lines');
        return listResponse('shipments', result, shipmentExportListDefinition, deps.cursors, (shipment) =>
          presentShipment(shipment, { includeLines, exports: result.exports.get(shipment.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/shipments/mark-as-exported',
      summary: 'Confirm exported shipments',
      description: MARK_RULES,
      tag: 'Exports',
      scopes: ['fulfilment:write'],
      body: ShipmentsMarkAsExportedDto,
      status: 200,
      response: { description: 'The marked shipments', schema: markedOf('shipments', ShipmentSchema) },
      handler: async ({ principal, body }) => ({
        shipments: await markThenList(
          deps,
          principal,
          {
            documentType: 'shipment',
            arrayKey: 'shipments',
            idKey: 'shipment_id',
            items: body.shipments.map((item) => toMarkItem(item, item.shipment_id)),
          },
          listShipments,
          (shipment, exports) =>
            presentShipment(shipment, { includeLines: false, exports: exports.get(shipment.id) ?? [] }),
        ),
      }),
    })
    .route({
      method: 'get',
      path: '/v10/invoices/export',
      summary: 'Export invoices',
      description: `Booked invoices this system_id has not marked exported; include_non_booked=1 adds drafts. includes[]=lines adds the lines. ${EXPORT_FLOW}`,
      tag: 'Exports',
      scopes: ['finance:read'],
      list: invoiceExportListDefinition,
      query: FinancialDocumentExportQueryDto,
      status: 200,
      response: { description: 'A page of invoices to export', schema: exportPageOf('invoices', InvoiceSchema) },
      handler: async ({ principal, req, query }) => {
        const result = await exportInvoices(deps, {
          list: await listRequest(req, principal.brandId, deps.cursors),
          ...exportScopeInput(query),
          includeNonBooked: flag(query.include_non_booked),
        });
        const includeLines = result.query.includes.includes('lines');
        return listResponse('invoices', result, invoiceExportListDefinition, deps.cursors, (invoice) =>
          presentInvoice(invoice, { includeLines, exports: result.exports.get(invoice.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/invoices/mark-as-exported',
      summary: 'Confirm exported invoices',
      description: MARK_RULES,
      tag: 'Exports',
      scopes: ['finance:write'],
      body: InvoicesMarkAsExportedDto,
      status: 200,
      response: { description: 'The marked invoices', schema: markedOf('invoices', InvoiceSchema) },
      handler: async ({ principal, body }) => ({
        invoices: await markThenList(
          deps,
          principal,
          {
            documentType: 'invoice',
            arrayKey: 'invoices',
            idKey: 'invoice_id',
            items: body.invoices.map((item) => toMarkItem(item, item.invoice_id)),
          },
          listInvoices,
          (invoice, exports) =>
            presentInvoice(invoice, { includeLines: false, exports: exports.get(invoice.id) ?? [] }),
        ),
      }),
    })
    .route({
      method: 'get',
      path: '/v10/credit-notes/export',
      summary: 'Export credit notes',
      description: `Booked credit notes this system_id has not marked exported; include_non_booked=1 adds drafts. includes[]=lines adds the lines. ${EXPORT_FLOW}`,
      tag: 'Exports',
      scopes: ['finance:read'],
      list: creditNoteExportListDefinition,
      query: FinancialDocumentExportQueryDto,
      status: 200,
      response: {
        description: 'A page of credit notes to export',
        schema: exportPageOf('credit_notes', CreditNoteSchema),
      },
      handler: async ({ principal, req, query }) => {
        const result = await exportCreditNotes(deps, {
          list: await listRequest(req, principal.brandId, deps.cursors),
          ...exportScopeInput(query),
          includeNonBooked: flag(query.include_non_booked),
        });
        const includeLines = result.query.includes.includes('lines');
        return listResponse('credit_notes', result, creditNoteExportListDefinition, deps.cursors, (creditNote) =>
          presentCreditNote(creditNote, { includeLines, exports: result.exports.get(creditNote.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/credit-notes/mark-as-exported',
      summary: 'Confirm exported credit notes',
      description: MARK_RULES,
      tag: 'Exports',
      scopes: ['finance:write'],
      body: CreditNotesMarkAsExportedDto,
      status: 200,
      response: { description: 'The marked credit notes', schema: markedOf('credit_notes', CreditNoteSchema) },
      handler: async ({ principal, body }) => ({
        credit_notes: await markThenList(
          deps,
          principal,
          {
            documentType: 'credit_note',
            arrayKey: 'credit_notes',
            idKey: 'credit_note_id',
            items: body.credit_notes.map((item) => toMarkItem(item, item.credit_note_id)),
          },
          listCreditNotes,
          (creditNote, exports) =>
            presentCreditNote(creditNote, { includeLines: false, exports: exports.get(creditNote.id) ?? [] }),
        ),
      }),
    })
    .route({
      method: 'get',
      path: '/v10/accounting-entries/export',
      summary: 'Export accounting entries',
      description: `Accounting entries this system_id has not marked exported, each with its lines. ${EXPORT_FLOW}`,
      tag: 'Exports',
      scopes: ['finance:read'],
      list: accountingEntryExportListDefinition,
      query: ExportQueryDto,
      status: 200,
      response: {
        description: 'A page of accounting entries to export',
        schema: exportPageOf('accounting_entries', AccountingEntrySchema),
      },
      handler: async ({ principal, req, query }) => {
        const result = await exportAccountingEntries(deps, {
          list: await listRequest(req, principal.brandId, deps.cursors),
          ...exportScopeInput(query),
        });
        return listResponse('accounting_entries', result, accountingEntryExportListDefinition, deps.cursors, (entry) =>
          presentAccountingEntry(entry, { exports: result.exports.get(entry.id) ?? [] }),
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/accounting-entries/mark-as-exported',
      summary: 'Confirm exported accounting entries',
      description: MARK_RULES,
      tag: 'Exports',
      scopes: ['finance:write'],
      body: AccountingEntriesMarkAsExportedDto,
      status: 200,
      response: {
        description: 'The marked accounting entries',
        schema: markedOf('accounting_entries', AccountingEntrySchema),
      },
      handler: async ({ principal, body }) => ({
        accounting_entries: await markThenList(
          deps,
          principal,
          {
            documentType: 'accounting_entry',
            arrayKey: 'accounting_entries',
            idKey: 'accounting_entry_id',
            items: body.accounting_entries.map((item) => toMarkItem(item, item.accounting_entry_id)),
          },
          listAccountingEntries,
          (entry, exports) => presentAccountingEntry(entry, { exports: exports.get(entry.id) ?? [] }),
        ),
      }),
    });
}
