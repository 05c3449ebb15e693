import { ExportScope } from '../documents/document.entities';
import { listInMemory } from '../listing/in-memory-list';
import { ListDefinition, ListQuery, ListRows } from '../listing/list-query';
import { Alert, ClaimCause, Return, ReturnPortal } from '../returns/return.entities';
import {
  alertListDefinition,
  claimCauseListDefinition,
  returnListDefinition,
  returnPortalListDefinition,
} from '../returns/return.list-definitions';
import { OrdersState } from './in-memory-orders';
import { ReturnRepositories } from '../returns/return.ports';
import { InMemoryFactories } from './in-memory-factories';

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

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const byId = <T extends { id: number }>(rows: T[]): T[] => [...rows].sort((a, b) => a.id - b.id);

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

function insertRow<T extends { id: number }>(rows: T[], row: T, what: string): void {
  if (rows.some((r) => r.id === row.id)) throw new Error(`${what} ${row.id} already exists`);
  rows.push(clone(row));
}

/** Inserts or replaces by id; replacing another brand's row is a bug in the caller. */
function upsertRow<T extends { id: number; brandId: number }>(rows: T[], row: T, what: string): number {
  const index = rows.findIndex((r) => r.id === row.id);
  if (index >= 0 && rows[index]!.brandId !== row.brandId) throw new Error(`${what} ${row.id} belongs to another brand`);
  return index;
}

/** What the repositories below share, over one binding's state. */
function returnRows(state: () => ReturnsState & MarksState) {
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

  /** Whether `scope`'s system has not yet taken the return (no mark at or before `notExportedSince`) and its status is in scope. */
  function exportable(brandId: number, scope: ExportScope): (ret: Return) => boolean {
    const hidden = new Set(
      s()
        .exportMarks.filter(
          (m) =>
            m.brandId === brandId &&
            m.documentType === 'return' &&
            m.systemId === scope.systemId &&
            m.exportedAt <= scope.notExportedSince,
        )
        .map((m) => m.documentId),
    );
    return (ret) => !hidden.has(ret.id) && (scope.statuses === undefined || scope.statuses.includes(ret.status));
  }

  return { pick, listOf, exportable };
}

/** The returns module's repositories in memory. */
export const inMemoryReturnFactories: InMemoryFactories<ReturnRepositories, ReturnsState & MarksState> = {
  returns: (s) => {
    const { pick, listOf, exportable } = returnRows(s);
    return {
      async save(ret) {
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
        return pick(s().returns, brandId, (r) => wanted.has(r.id));
      },
      async findByRma(brandId, rma) {
        return pick(s().returns, brandId, (r) => r.rma === rma);
      },
      async findByPortalRma(brandId, returnPortalId, rma) {
        return pick(s().returns, brandId, (r) => r.returnPortalId === returnPortalId && r.rma === rma)[0] ?? null;
      },
      async findByOrderIds(brandId, orderIds) {
        const wanted = new Set(orderIds);
        return pick(s().returns, brandId, (r) => r.orderId !== null && wanted.has(r.orderId));
      },
      async list(brandId, query) {
        return listOf(returnListDefinition, s().returns, brandId, query);
      },
      async listForExport(brandId, query, scope) {
        const keep = exportable(brandId, scope);
        // The definition only supplies field readers here; the caller validated `query` against its own.
        const { rows } = listInMemory(
          returnListDefinition,
          { ...query, withTotal: false },
          s().returns.filter((r) => r.brandId === brandId && keep(r)),
        );
        return { rows: clone(rows), total: null };
      },
    };
  },
  claimCauses: (s) => {
    const { pick, listOf } = returnRows(s);
    return {
      async insert(cause) {
        insertRow(s().claimCauses, cause, 'claim cause');
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().claimCauses, brandId, (c) => wanted.has(c.id));
      },
      async findByCodes(brandId, codes) {
        const wanted = new Set(codes.map((c) => c.toLowerCase()));
        return pick(s().claimCauses, brandId, (c) => wanted.has(c.code.toLowerCase()));
      },
      async list(brandId, query) {
        return listOf(claimCauseListDefinition, s().claimCauses, brandId, query);
      },
    };
  },
  returnPortals: (s) => {
    const { pick, listOf } = returnRows(s);
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
        return pick(s().returnPortals, brandId, (p) => wanted.has(p.id));
      },
      async list(brandId, query) {
        return listOf(returnPortalListDefinition, s().returnPortals, brandId, query);
      },
    };
  },
  alerts: (s) => {
    const { pick, listOf } = returnRows(s);
    return {
      async save(alert) {
        const rows = s().alerts;
        const index = upsertRow(rows, alert, 'alert');
        if (index >= 0) rows[index] = clone(alert);
        else rows.push(clone(alert));
      },
      async findByIds(brandId, ids) {
        const wanted = new Set(ids);
        return pick(s().alerts, brandId, (a) => wanted.has(a.id));
      },
      async list(brandId, query) {
        return listOf(alertListDefinition, s().alerts, brandId, query);
      },
    };
  },
};
