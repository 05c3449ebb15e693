import { DeliveryNote, ProductionOrder } from '../production/production.entities';
import { deliveryNoteListDefinition, productionOrderListDefinition } from '../production/production.list-definitions';
import { OrdersState } from './in-memory-orders';
import { ProductionRepositories } from '../production/production.ports';
import { inMemoryDocumentStore } from './in-memory-document-store';
import { InMemoryFactories } from './in-memory-factories';

/**
 * Production orders and their delivery notes in memory, with the semantics every adapter must
 * match (the production contract suite checks them):
 * - `save` inserts or replaces the document; its lines are upserted by id and never removed (like
 *   orders: production lines are only ever added or updated). Lines come back by id ascending.
 * - Lookups return documents by id ascending; another brand's documents are never returned, and
 *   saving a document under another brand's id is an error.
 * - Lists always carry lines. `productionOrders.listForExport` keeps the orders whose status is in
 *   `scope.statuses` and that `scope.systemId` has not marked at or before
 *   `scope.notExportedSince`, then applies the list query; it never counts.
 */
export interface ProductionState {
  productionOrders: ProductionOrder[];
  deliveryNotes: DeliveryNote[];
}

export function emptyProductionState(): ProductionState {
  return { productionOrders: [], deliveryNotes: [] };
}

/** The export marks the production export consults live with the other documents' (orders state). */
type MarksState = Pick<OrdersState, 'exportMarks'>;

/** The production module's repositories in memory. */
export const inMemoryProductionFactories: InMemoryFactories<ProductionRepositories, ProductionState & MarksState> = {
  productionOrders: (s) => {
    const store = inMemoryDocumentStore({
      rows: () => s().productionOrders,
      marks: () => s().exportMarks,
      definition: productionOrderListDefinition,
      documentType: 'production_order',
      what: 'production order',
    });
    return {
      async save(order) {
        store.save(order);
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return store.find(brandId, (o) => wanted.has(o.id));
      },
      async list(brandId, query) {
        return store.list(brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return store.listForExport(brandId, query, scope);
      },
    };
  },
  deliveryNotes: (s) => {
    const store = inMemoryDocumentStore({
      rows: () => s().deliveryNotes,
      marks: () => s().exportMarks,
      definition: deliveryNoteListDefinition,
      documentType: 'delivery_note',
      what: 'delivery note',
    });
    return {
      async save(note) {
        store.save(note);
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return store.find(brandId, (n) => wanted.has(n.id));
      },
      async findByNumbers(brandId, numbers) {
        const wanted = new Set(numbers);
        return store.find(brandId, (n) => wanted.has(n.deliveryNoteNumber));
      },
      async findByProductionOrderIds(brandId, productionOrderIds) {
        const wanted = new Set(productionOrderIds);
        return store.find(brandId, (n) => wanted.has(n.productionOrderId));
      },
      async list(brandId, query) {
        return store.list(brandId, query);
      },
    };
  },
};
