import { ExportMark, TimelineEvent } from '../documents/document.entities';
import { AccountingEntry, CreditNote, Invoice } from '../finance/finance.entities';
import {
  accountingEntryListDefinition,
  creditNoteListDefinition,
  invoiceListDefinition,
} from '../finance/finance.list-definitions';
import { Shipment } from '../fulfilment/shipment.entities';
import { shipmentListDefinition } from '../fulfilment/shipment.list-definitions';
import { ListQuery, ListRows } from '../listing/list-query';
import { Order, OrderChannel } from '../orders/order.entities';
import { orderChannelListDefinition, orderListDefinition } from '../orders/order.list-definitions';
import { BrandSettings } from '../settings/settings.entities';
import { DocumentRepositories } from '../documents/document.ports';
import { FinanceRepositories } from '../finance/finance.ports';
import { ShipmentRepositories } from '../fulfilment/shipment.ports';
import { OrderRepositories } from '../orders/order.ports';
import { SettingsRepositories } from '../settings/settings.ports';
import { byId, clone, inMemoryDocumentStore, insertRow, listRows, pickRows } from './in-memory-document-store';
import { InMemoryFactories } from './in-memory-factories';
import { CatalogState } from './in-memory-catalog';
import { PartnersState } from './in-memory-partners';
import { refuseCrossBrandReference } from './in-memory-references';

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

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const withoutOrderLines = (query: ListQuery, rows: ListRows<Order>): ListRows<Order> =>
  query.includes.includes('lines') ? rows : { ...rows, rows: rows.rows.map((o) => ({ ...o, lines: [] })) };

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
export const inMemoryOrderFactories: InMemoryFactories<OrderRepositories, OrdersState & CatalogState & PartnersState> =
  {
    orderChannels: (s) => {
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
          return pickRows(s().orderChannels, brandId, (c) => wanted.has(c.id));
        },
        async list(brandId, query) {
          return listRows(orderChannelListDefinition, s().orderChannels, brandId, query);
        },
      };
    },
    orders: (s) => {
      const store = inMemoryDocumentStore({
        rows: () => s().orders,
        marks: () => s().exportMarks,
        definition: orderListDefinition,
        documentType: 'order',
        what: 'order',
      });
      return {
        async save(order) {
          const state = s();
          refuseCrossBrandReference('customer', order.brandId, order.customerId, state.customers);
          refuseCrossBrandReference('order channel', order.brandId, order.orderChannelId, state.orderChannels);
          for (const line of order.lines)
            refuseCrossBrandReference('variant', order.brandId, line.variantId, state.variants);
          store.save(order);
        },
        async findByIds(brandId, ids) {
          const wanted = new Set(ids);
          return store.find(brandId, (o) => wanted.has(o.id));
        },
        async findByNumbers(brandId, numbers) {
          const wanted = new Set(numbers);
          return store.find(brandId, (o) => wanted.has(o.orderNumber));
        },
        async list(brandId, query) {
          return withoutOrderLines(query, store.list(brandId, query));
        },
        async listForExport(brandId, query, scope) {
          return withoutOrderLines(query, store.listForExport(brandId, query, scope));
        },
      };
    },
  };

/** The fulfilment module's repositories in memory. */
export const inMemoryShipmentFactories: InMemoryFactories<ShipmentRepositories, OrdersState & CatalogState> = {
  shipments: (s) => {
    const store = inMemoryDocumentStore({
      rows: () => s().shipments,
      marks: () => s().exportMarks,
      definition: shipmentListDefinition,
      documentType: 'shipment',
      what: 'shipment',
    });
    return {
      async save(shipment) {
        const state = s();
        refuseCrossBrandReference('order', shipment.brandId, shipment.orderId, state.orders);
        for (const line of shipment.lines)
          refuseCrossBrandReference('variant', shipment.brandId, line.variantId, state.variants);
        store.save(shipment);
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return store.find(brandId, (x) => wanted.has(x.id));
      },
      async findByNumbers(brandId, numbers) {
        const wanted = new Set(numbers);
        return store.find(brandId, (x) => wanted.has(x.shipmentNumber));
      },
      async findByOrderIds(brandId, orderIds) {
        const wanted = new Set(orderIds);
        return store.find(brandId, (x) => wanted.has(x.orderId));
      },
      async list(brandId, query) {
        return store.list(brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return store.listForExport(brandId, query, scope);
      },
    };
  },
};

/** The finance module's repositories in memory. */
export const inMemoryFinanceFactories: InMemoryFactories<FinanceRepositories, OrdersState> = {
  invoices: (s) => {
    const store = inMemoryDocumentStore({
      rows: () => s().invoices,
      marks: () => s().exportMarks,
      definition: invoiceListDefinition,
      documentType: 'invoice',
      what: 'invoice',
    });
    return {
      async save(invoice) {
        store.save(invoice);
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return store.find(brandId, (x) => wanted.has(x.id));
      },
      async findByOrderIds(brandId, orderIds) {
        const wanted = new Set(orderIds);
        return store.find(brandId, (x) => x.orderId !== null && wanted.has(x.orderId));
      },
      async list(brandId, query) {
        return store.list(brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return store.listForExport(brandId, query, scope);
      },
    };
  },
  creditNotes: (s) => {
    const store = inMemoryDocumentStore({
      rows: () => s().creditNotes,
      marks: () => s().exportMarks,
      definition: creditNoteListDefinition,
      documentType: 'credit_note',
      what: 'credit note',
    });
    return {
      async save(creditNote) {
        store.save(creditNote);
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return store.find(brandId, (x) => wanted.has(x.id));
      },
      async findByInvoiceIds(brandId, invoiceIds) {
        const wanted = new Set(invoiceIds);
        return store.find(brandId, (x) => x.invoiceId !== null && wanted.has(x.invoiceId));
      },
      async findByReturnIds(brandId, returnIds) {
        const wanted = new Set(returnIds);
        return store.find(brandId, (x) => x.returnId !== null && wanted.has(x.returnId));
      },
      async list(brandId, query) {
        return store.list(brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return store.listForExport(brandId, query, scope);
      },
    };
  },
  accountingEntries: (s) => {
    const store = inMemoryDocumentStore({
      rows: () => s().accountingEntries,
      marks: () => s().exportMarks,
      definition: accountingEntryListDefinition,
      documentType: 'accounting_entry',
      what: 'accounting entry',
    });
    return {
      async insert(entry) {
        insertRow(s().accountingEntries, entry, 'accounting entry');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return store.find(brandId, (x) => wanted.has(x.id));
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
        return store.list(brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return store.listForExport(brandId, query, { ...scope, statuses: undefined });
      },
    };
  },
};
