import { DocumentType, ExportMark, ExportScope, TimelineEvent } from '../documents/document.entities';
import { AccountingEntry, CreditNote, Invoice } from '../finance/finance.entities';
import {
  accountingEntryListDefinition,
  creditNoteListDefinition,
  invoiceListDefinition,
} from '../finance/finance.list-definitions';
import { Shipment } from '../fulfilment/shipment.entities';
import { shipmentListDefinition } from '../fulfilment/shipment.list-definitions';
import { listInMemory } from '../listing/in-memory-list';
import { ListDefinition, ListQuery, ListRows } from '../listing/list-query';
import { Order, OrderChannel } from '../orders/order.entities';
import { orderChannelListDefinition, orderListDefinition } from '../orders/order.list-definitions';
import { BrandSettings } from '../settings/settings.entities';
import { DocumentRepositories } from '../documents/document.ports';
import { FinanceRepositories } from '../finance/finance.ports';
import { ShipmentRepositories } from '../fulfilment/shipment.ports';
import { OrderRepositories } from '../orders/order.ports';
import { SettingsRepositories } from '../settings/settings.ports';
import { InMemoryFactories } from './in-memory-factories';

/**
 * Orders, fulfilment, finance and the document side tables (export marks, timeline, settings) in
 * memory. Aggregates are stored whole (lines inside), with the semantics every adapter must
 * match (the orders contract suite checks them):
 * - `save` inserts or replaces the document; its lines are upserted by id and never removed (a
 *   line missing from the saved aggregate stays). Lines come back by id ascending.
 * - Lookups by ids / numbers / parent ids return documents by id ascending; another brand's
 *   documents are never returned, and saving a document under another brand's id is an error.
 * - `orders.list` and `orders.listForExport` carry lines only when `lines` is included
 *   (otherwise `lines: []`); shipments, invoices and credit notes always carry their lines.
 * - `listForExport` keeps the documents whose status is one of `scope.statuses` (any status when
 *   undefined) and that have no mark of `scope.systemId` with `exportedAt <= scope.notExportedSince`,
 *   then applies the list query; it never counts (`total: null`).
 * - Export marks: one per (brand, document type, document, system), the latest replacing the
 *   earlier; `marksOf` by document id, then exported at, then system id.
 * - Timeline events of a document oldest first (created at, then id).
 */
export interface OrdersState {
  brandSettings: BrandSettings[];
  exportMarks: ExportMark[];
  timelineEvents: TimelineEvent[];
  orderChannels: OrderChannel[];
  orders: Order[];
  shipments: Shipment[];
  invoices: Invoice[];
  creditNotes: CreditNote[];
  accountingEntries: AccountingEntry[];
}

export function emptyOrdersState(): OrdersState {
  return {
    brandSettings: [],
    exportMarks: [],
    timelineEvents: [],
    orderChannels: [],
    orders: [],
    shipments: [],
    invoices: [],
    creditNotes: [],
    accountingEntries: [],
  };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const byId = <T extends { id: number }>(rows: T[]): T[] => [...rows].sort((a, b) => a.id - b.id);
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Aggregate<L extends { id: number }> {
  id: number;
  brandId: number;
  lines: L[];
}

/** Upserts the aggregate; lines are merged by id (never removed) and kept ascending. */
function saveAggregate<L extends { id: number }, T extends Aggregate<L>>(rows: T[], row: T, what: string): void {
  const index = rows.findIndex((r) => r.id === row.id);
  if (index < 0) {
    rows.push(clone({ ...row, lines: byId(row.lines) }));
    return;
  }
  const existing = rows[index]!;
  if (existing.brandId !== row.brandId) throw new Error(`${what} ${row.id} belongs to another brand`);
  const lines = new Map(existing.lines.map((l) => [l.id, l]));
  for (const line of row.lines) lines.set(line.id, line);
  rows[index] = clone({ ...row, lines: byId([...lines.values()]) });
}

function insertRow<T extends { id: number }>(rows: T[], row: T, what: string): void {
  if (rows.some((r) => r.id === row.id)) throw new Error(`${what} ${row.id} already exists`);
  rows.push(clone(row));
}

/** What the repositories below share, over one binding's state. */
function documentRows(state: () => OrdersState) {
  const s = state;

  /** Whether the document is hidden from `scope`'s system by a mark at or before `notExportedSince`. */
  function exportable(
    brandId: number,
    documentType: DocumentType,
    scope: ExportScope,
  ): (doc: { id: number; status?: string }) => boolean {
    const hidden = new Set(
      s()
        .exportMarks.filter(
          (m) =>
            m.brandId === brandId &&
            m.documentType === documentType &&
            m.systemId === scope.systemId &&
            m.exportedAt <= scope.notExportedSince,
        )
        .map((m) => m.documentId),
    );
    return (doc) =>
      !hidden.has(doc.id) &&
      (scope.statuses === undefined || (doc.status !== undefined && scope.statuses.includes(doc.status)));
  }

  function listOf<T extends { id: number; brandId: number }>(
    definition: ListDefinition<T>,
    rows: T[],
    brandId: number,
    query: ListQuery,
  ): ListRows<T> {
    const { rows: page, total } = listInMemory(
      definition,
      query,
      rows.filter((r) => r.brandId === brandId),
    );
    return { rows: clone(page), total };
  }

  function exportOf<T extends { id: number; brandId: number; status?: string }>(
    definition: ListDefinition<T>,
    rows: T[],
    brandId: number,
    query: ListQuery,
    scope: ExportScope,
    documentType: DocumentType,
  ): ListRows<T> {
    const keep = exportable(brandId, documentType, scope);
    const { rows: page } = listInMemory(
      definition,
      { ...query, withTotal: false },
      rows.filter((r) => r.brandId === brandId && keep(r)),
    );
    return { rows: clone(page), total: null };
  }

  const withoutOrderLines = (query: ListQuery, rows: ListRows<Order>): ListRows<Order> =>
    query.includes.includes('lines') ? rows : { ...rows, rows: rows.rows.map((o) => ({ ...o, lines: [] })) };

  const pick = <T extends { id: number; brandId: number }>(
    rows: T[],
    brandId: number,
    test: (row: T) => boolean,
  ): T[] => clone(byId(rows.filter((r) => r.brandId === brandId && test(r))));

  return { exportable, listOf, exportOf, withoutOrderLines, pick };
}

/** The settings module's repository in memory. */
export const inMemorySettingsFactories: InMemoryFactories<SettingsRepositories, OrdersState> = {
  settings: (s) => ({
    async find(brandId) {
      return clone(s().brandSettings.find((x) => x.brandId === brandId) ?? null);
    },
    async save(settings) {
      const rows = s().brandSettings;
      const index = rows.findIndex((x) => x.brandId === settings.brandId);
      if (index >= 0) rows[index] = clone(settings);
      else rows.push(clone(settings));
    },
  }),
};

/** The documents module's repositories in memory. */
export const inMemoryDocumentFactories: InMemoryFactories<DocumentRepositories, OrdersState> = {
  exportMarks: (s) => ({
    async mark(marks) {
      const rows = s().exportMarks;
      for (const mark of marks) {
        const index = rows.findIndex(
          (m) =>
            m.brandId === mark.brandId &&
            m.documentType === mark.documentType &&
            m.documentId === mark.documentId &&
            m.systemId === mark.systemId,
        );
        if (index >= 0) rows[index] = clone(mark);
        else rows.push(clone(mark));
      }
    },
    async marksOf(brandId, documentType, documentIds) {
      const wanted = new Set(documentIds);
      return clone(
        s().exportMarks.filter(
          (m) => m.brandId === brandId && m.documentType === documentType && wanted.has(m.documentId),
        ),
      ).sort(
        (a, b) =>
          a.documentId - b.documentId || compareText(a.exportedAt, b.exportedAt) || compareText(a.systemId, b.systemId),
      );
    },
  }),
  timeline: (s, bound) => ({
    async append(events) {
      if (events.length === 0) return;
      const eventIds = await bound.ids.next('timeline_events', events.length);
      events.forEach((event, i) => s().timelineEvents.push(clone({ ...event, id: eventIds[i]! })));
    },
    async eventsOf(brandId, documentType, documentId) {
      return clone(
        s().timelineEvents.filter(
          (e) => e.brandId === brandId && e.documentType === documentType && e.documentId === documentId,
        ),
      ).sort((a, b) => compareText(a.createdAt, b.createdAt) || a.id - b.id);
    },
  }),
};

/** The orders module's repositories in memory. */
export const inMemoryOrderFactories: InMemoryFactories<OrderRepositories, OrdersState> = {
  orderChannels: (s) => {
    const { listOf, pick } = documentRows(s);
    return {
      async insert(channel) {
        if (s().orderChannels.some((c) => c.publicId === channel.publicId))
          throw new Error(`order channel public id ${channel.publicId} is taken`);
        insertRow(s().orderChannels, channel, 'order channel');
      },
      async findByPublicId(brandId, publicId) {
        return clone(s().orderChannels.find((c) => c.brandId === brandId && c.publicId === publicId) ?? null);
      },
      async findByPublicIdAnyBrand(publicId) {
        return clone(s().orderChannels.find((c) => c.publicId === publicId) ?? null);
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().orderChannels, brandId, (c) => wanted.has(c.id));
      },
      async list(brandId, query) {
        return listOf(orderChannelListDefinition, s().orderChannels, brandId, query);
      },
    };
  },
  orders: (s) => {
    const { listOf, exportOf, withoutOrderLines, pick } = documentRows(s);
    return {
      async save(order) {
        saveAggregate(s().orders, order, 'order');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().orders, brandId, (o) => wanted.has(o.id));
      },
      async findByNumbers(brandId, numbers) {
        const wanted = new Set(numbers);
        return pick(s().orders, brandId, (o) => wanted.has(o.orderNumber));
      },
      async list(brandId, query) {
        return withoutOrderLines(query, listOf(orderListDefinition, s().orders, brandId, query));
      },
      async listForExport(brandId, query, scope) {
        return withoutOrderLines(query, exportOf(orderListDefinition, s().orders, brandId, query, scope, 'order'));
      },
    };
  },
};

/** The fulfilment module's repositories in memory. */
export const inMemoryShipmentFactories: InMemoryFactories<ShipmentRepositories, OrdersState> = {
  shipments: (s) => {
    const { listOf, exportOf, pick } = documentRows(s);
    return {
      async save(shipment) {
        saveAggregate(s().shipments, shipment, 'shipment');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().shipments, brandId, (x) => wanted.has(x.id));
      },
      async findByNumbers(brandId, numbers) {
        const wanted = new Set(numbers);
        return pick(s().shipments, brandId, (x) => wanted.has(x.shipmentNumber));
      },
      async findByOrderIds(brandId, orderIds) {
        const wanted = new Set(orderIds);
        return pick(s().shipments, brandId, (x) => wanted.has(x.orderId));
      },
      async list(brandId, query) {
        return listOf(shipmentListDefinition, s().shipments, brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return exportOf(shipmentListDefinition, s().shipments, brandId, query, scope, 'shipment');
      },
    };
  },
};

/** The finance module's repositories in memory. */
export const inMemoryFinanceFactories: InMemoryFactories<FinanceRepositories, OrdersState> = {
  invoices: (s) => {
    const { listOf, exportOf, pick } = documentRows(s);
    return {
      async save(invoice) {
        saveAggregate(s().invoices, invoice, 'invoice');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().invoices, brandId, (x) => wanted.has(x.id));
      },
      async findByOrderIds(brandId, orderIds) {
        const wanted = new Set(orderIds);
        return pick(s().invoices, brandId, (x) => x.orderId !== null && wanted.has(x.orderId));
      },
      async list(brandId, query) {
        return listOf(invoiceListDefinition, s().invoices, brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return exportOf(invoiceListDefinition, s().invoices, brandId, query, scope, 'invoice');
      },
    };
  },
  creditNotes: (s) => {
    const { listOf, exportOf, pick } = documentRows(s);
    return {
      async save(creditNote) {
        saveAggregate(s().creditNotes, creditNote, 'credit note');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().creditNotes, brandId, (x) => wanted.has(x.id));
      },
      async findByInvoiceIds(brandId, invoiceIds) {
        const wanted = new Set(invoiceIds);
        return pick(s().creditNotes, brandId, (x) => x.invoiceId !== null && wanted.has(x.invoiceId));
      },
      async findByReturnIds(brandId, returnIds) {
        const wanted = new Set(returnIds);
        return pick(s().creditNotes, brandId, (x) => x.returnId !== null && wanted.has(x.returnId));
      },
      async list(brandId, query) {
        return listOf(creditNoteListDefinition, s().creditNotes, brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return exportOf(creditNoteListDefinition, s().creditNotes, brandId, query, scope, 'credit_note');
      },
    };
  },
  accountingEntries: (s) => {
    const { listOf, exportOf, pick } = documentRows(s);
    return {
      async insert(entry) {
        insertRow(s().accountingEntries, entry, 'accounting entry');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().accountingEntries, brandId, (x) => wanted.has(x.id));
      },
      async findByDocument(brandId, documentType, documentId) {
        return clone(
          byId(
            s().accountingEntries.filter(
              (x) => x.brandId === brandId && x.documentType === documentType && x.documentId === documentId,
            ),
          )[0] ?? null,
        );
      },
      async list(brandId, query) {
        return listOf(accountingEntryListDefinition, s().accountingEntries, brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return exportOf(
          accountingEntryListDefinition,
          s().accountingEntries,
          brandId,
          query,
          { ...scope, statuses: undefined },
          'accounting_entry',
        );
      },
    };
  },
};
