import { Alert, ClaimCause, Return, ReturnPortal } from '../returns/return.entities';
import {
  alertListDefinition,
  claimCauseListDefinition,
  returnListDefinition,
  returnPortalListDefinition,
} from '../returns/return.list-definitions';
import { OrdersState } from './in-memory-orders';
import { ReturnRepositories } from '../returns/return.ports';
import { byId, clone, inMemoryDocumentStore, insertRow, listRows, pickRows } from './in-memory-document-store';
import { InMemoryFactories } from './in-memory-factories';
import { CatalogState } from './in-memory-catalog';
import { refuseCrossBrandReference } from './in-memory-references';

/**
 * Returns, claim causes, return portals and alerts in memory, with the semantics every adapter
 * must match (the returns contract suite checks them):
 * - `returns.save` inserts or replaces the return and makes its stored lines exactly the
 *   aggregate's: lines missing from it are removed (a portal upsert sends the full desired set).
 *   Lines come back by id ascending.
 * - (brand, return portal, rma) is unique among returns with a portal; saving a second one is a
 *   unique violation, like the SQL unique index. Returns without a portal may share an rma.
 * - Lookups return documents by id ascending; another brand's rows are never returned, and saving
 *   a row under another brand's id is an error.
 * - `returns.list` and `listForExport` always carry lines; `listForExport` keeps the returns whose
 *   status is in `scope.statuses` and that `scope.systemId` has not marked at or before
 *   `scope.notExportedSince`, and never counts.
 * - Claim cause codes match ignoring case and are not unique; portal public ids are unique across brands.
 */
export interface ReturnsState {
  returns: Return[];
  claimCauses: ClaimCause[];
  returnPortals: ReturnPortal[];
  alerts: Alert[];
}

export function emptyReturnsState(): ReturnsState {
  return { returns: [], claimCauses: [], returnPortals: [], alerts: [] };
}

/** The export marks the returns export consults live with the other documents' (orders state). */
type MarksState = Pick<OrdersState, 'exportMarks'>;

/**
 * A unique key taken, shaped like the error the SQL adapters' unit of work retries (a driver error
 * with a `code`). The in-memory unit of work serialises transactions, so well-behaved work (look
 * up, then save) never meets it; it only catches work that skips the lookup.
 */
export class InMemoryUniqueViolation extends Error {
  readonly code = 'unique_violation';
  constructor(detail: string) {
    super(detail);
    this.name = 'InMemoryUniqueViolation';
  }
}

/** Inserts or replaces by id; replacing another brand's row is a bug in the caller. */
function upsertRow<T extends { id: number; brandId: number }>(rows: T[], row: T, what: string): number {
  const index = rows.findIndex((r) => r.id === row.id);
  if (index >= 0 && rows[index]!.brandId !== row.brandId) throw new Error(`${what} ${row.id} belongs to another brand`);
  return index;
}

/** The returns module's repositories in memory. */
export const inMemoryReturnFactories: InMemoryFactories<
  ReturnRepositories,
  ReturnsState & MarksState & Pick<OrdersState, 'orders'> & Pick<CatalogState, 'variants'>
> = {
  returns: (s) => {
    const store = inMemoryDocumentStore({
      rows: () => s().returns,
      marks: () => s().exportMarks,
      definition: returnListDefinition,
      documentType: 'return',
      what: 'return',
    });
    return {
      async save(ret) {
        const orders = s().orders;
        refuseCrossBrandReference('order', ret.brandId, ret.orderId, orders);
        const orderLines = orders.flatMap((o) => o.lines.map((line) => ({ id: line.id, brandId: o.brandId })));
        for (const line of ret.lines) {
          refuseCrossBrandReference('order line', ret.brandId, line.orderLineId, orderLines);
          refuseCrossBrandReference('variant', ret.brandId, line.variantId, s().variants);
        }
        const rows = s().returns;
        const index = upsertRow(rows, ret, 'return');
        if (ret.returnPortalId !== null) {
          const taken = rows.some(
            (r) =>
              r.id !== ret.id &&
              r.brandId === ret.brandId &&
              r.returnPortalId === ret.returnPortalId &&
              r.rma === ret.rma,
          );
          if (taken)
            throw new InMemoryUniqueViolation(`rma ${ret.rma} is taken on return portal ${ret.returnPortalId}`);
        }
        // The stored lines become exactly the aggregate's: what it leaves out is deleted.
        const stored = clone({ ...ret, lines: byId(ret.lines) });
        if (index >= 0) rows[index] = stored;
        else rows.push(stored);
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return store.find(brandId, (r) => wanted.has(r.id));
      },
      async findByRma(brandId, rma) {
        return store.find(brandId, (r) => r.rma === rma);
      },
      async findByPortalRma(brandId, returnPortalId, rma) {
        return store.find(brandId, (r) => r.returnPortalId === returnPortalId && r.rma === rma)[0] ?? null;
      },
      async findByOrderIds(brandId, orderIds) {
        const wanted = new Set(orderIds);
        return store.find(brandId, (r) => r.orderId !== null && wanted.has(r.orderId));
      },
      async list(brandId, query) {
        return store.list(brandId, query);
      },
      async listForExport(brandId, query, scope) {
        return store.listForExport(brandId, query, scope);
      },
    };
  },
  claimCauses: (s) => {
    return {
      async insert(cause) {
        insertRow(s().claimCauses, cause, 'claim cause');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pickRows(s().claimCauses, brandId, (c) => wanted.has(c.id));
      },
      async findByCodes(brandId, codes) {
        const wanted = new Set(codes.map((c) => c.toLowerCase()));
        return pickRows(s().claimCauses, brandId, (c) => wanted.has(c.code.toLowerCase()));
      },
      async list(brandId, query) {
        return listRows(claimCauseListDefinition, s().claimCauses, brandId, query);
      },
    };
  },
  returnPortals: (s) => {
    return {
      async insert(portal) {
        if (s().returnPortals.some((p) => p.publicId === portal.publicId)) {
          throw new InMemoryUniqueViolation(`return portal public id ${portal.publicId} is taken`);
        }
        insertRow(s().returnPortals, portal, 'return portal');
      },
      async findByPublicIdAnyBrand(publicId) {
        return clone(s().returnPortals.find((p) => p.publicId === publicId) ?? null);
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pickRows(s().returnPortals, brandId, (p) => wanted.has(p.id));
      },
      async list(brandId, query) {
        return listRows(returnPortalListDefinition, s().returnPortals, brandId, query);
      },
    };
  },
  alerts: (s) => {
    return {
      async save(alert) {
        const rows = s().alerts;
        const index = upsertRow(rows, alert, 'alert');
        if (index >= 0) rows[index] = clone(alert);
        else rows.push(clone(alert));
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pickRows(s().alerts, brandId, (a) => wanted.has(a.id));
      },
      async list(brandId, query) {
        return listRows(alertListDefinition, s().alerts, brandId, query);
      },
    };
  },
};
