import { ExportScope } from '../documents/document.entities';
import { listInMemory } from '../listing/in-memory-list';
import { ListDefinition, ListQuery, ListRows } from '../listing/list-query';
import { DeliveryNote, ProductionOrder } from '../production/production.entities';
import { deliveryNoteListDefinition, productionOrderListDefinition } from '../production/production.list-definitions';
import { OrdersState } from './in-memory-orders';
import { ProductionRepositories } from '../production/production.ports';
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

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const byId = <T extends { id: number }>(rows: T[]): T[] => [...rows].sort((a, b) => a.id - b.id);

/** Upserts the aggregate; lines are merged by id (never removed) and kept ascending. */
function saveAggregate<L extends { id: number }, T extends { id: number; brandId: number; lines: L[] }>(
  rows: T[],
  row: T,
  what: string,
): void {
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

/** What the repositories below share, over one binding's state. */
function productionRows(state: () => ProductionState & MarksState) {
  const s = state;

  const pick = <T extends { id: number; brandId: number }>(
    rows: T[],
    brandId: number,
    test: (row: T) => boolean,
  ): T[] => clone(byId(rows.filter((r) => r.brandId === brandId && test(r))));

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

  function exportable(brandId: number, scope: ExportScope): (order: ProductionOrder) => boolean {
    const hidden = new Set(
      s()
        .exportMarks.filter(
          (m) =>
            m.brandId === brandId &&
            m.documentType === 'production_order' &&
            m.systemId === scope.systemId &&
            m.exportedAt <= scope.notExportedSince,
        )
        .map((m) => m.documentId),
    );
    return (order) => !hidden.has(order.id) && (scope.statuses === undefined || scope.statuses.includes(order.status));
  }

  return { pick, listOf, exportable };
}

/** The production module's repositories in memory. */
export const inMemoryProductionFactories: InMemoryFactories<ProductionRepositories, ProductionState & MarksState> = {
  productionOrders: (s) => {
    const { pick, listOf, exportable } = productionRows(s);
    return {
      async save(order) {
        saveAggregate(s().productionOrders, order, 'production order');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().productionOrders, brandId, (o) => wanted.has(o.id));
      },
      async list(brandId, query) {
        return listOf(productionOrderListDefinition, s().productionOrders, brandId, query);
      },
      async listForExport(brandId, query, scope) {
        const keep = exportable(brandId, scope);
        // The definition only supplies field readers here; the caller validated `query` against its own.
        const { rows } = listInMemory(
          productionOrderListDefinition,
          { ...query, withTotal: false },
          s().productionOrders.filter((o) => o.brandId === brandId && keep(o)),
        );
        return { rows: clone(rows), total: null };
      },
    };
  },
  deliveryNotes: (s) => {
    const { pick, listOf } = productionRows(s);
    return {
      async save(note) {
        saveAggregate(s().deliveryNotes, note, 'delivery note');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().deliveryNotes, brandId, (n) => wanted.has(n.id));
      },
      async findByNumbers(brandId, numbers) {
        const wanted = new Set(numbers);
        return pick(s().deliveryNotes, brandId, (n) => wanted.has(n.deliveryNoteNumber));
      },
      async findByProductionOrderIds(brandId, productionOrderIds) {
        const wanted = new Set(productionOrderIds);
        return pick(s().deliveryNotes, brandId, (n) => wanted.has(n.productionOrderId));
      },
      async list(brandId, query) {
        return listOf(deliveryNoteListDefinition, s().deliveryNotes, brandId, query);
      },
    };
  },
};
