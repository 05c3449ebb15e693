import {
  Alert,
  AlertRepository,
  AlertStatus,
  ClaimCause,
  ClaimCauseRepository,
  ReturnPortal,
  ReturnPortalRepository,
} from '@brand/core';
import { Selectable, sql } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { AlertsTable, ClaimCausesTable, ReturnPortalsTable } from '../../tables/returns.tables';
import { selectInChunks, unique } from '../batches';
import { bulkInsert, upsertByIdWithinBrand } from '../bulk-insert';
import { claimLookup, LOOKUP, readInBrandOf } from '../brand-lookups';
import { Executor, fromFlag, toFlag } from '../executor';
import { toNullableNumber } from '../json-columns';
import { lockedInTransaction, sortById } from '../documents/document-sql';

/** The list keys of `claimCauseListDefinition`. */
const CLAIM_CAUSE_COLUMNS: ListColumns = {
  id: { column: 'claim_causes.id', type: 'integer' },
  code: { column: 'claim_causes.code', type: 'string' },
  name: { column: 'claim_causes.name', type: 'string' },
  created_at: { column: 'claim_causes.created_at', type: 'datetime' },
  updated_at: { column: 'claim_causes.updated_at', type: 'datetime' },
};

const CLAIM_CAUSE_LIST = brandTableList('claim_causes', CLAIM_CAUSE_COLUMNS);

const rowToCause = (r: Selectable<ClaimCausesTable>): ClaimCause => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  code: r.code,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function claimCauseRepository(executor: Executor): ClaimCauseRepository {
  const { db } = executor;
  return {
    async insert(c) {
      await db
        .insertInto('claim_causes')
        .values({
          id: c.id,
          brand_id: c.brandId,
          code: c.code,
          name: c.name,
          created_at: c.createdAt,
          updated_at: c.updatedAt,
        })
        .execute();
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('claim_causes').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return sortById(rows).map(rowToCause);
    },
    async findByCodes(brandId, codes) {
      // Codes match ignoring case (`Damaged` finds `damaged`); lower() is the same in both dialects for these codes.
      const lowered = unique(codes.map((c) => c.toLowerCase()));
      const rows = await selectInChunks(lowered, (chunk) =>
        db
          .selectFrom('claim_causes')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where(sql`lower(code)`, 'in', chunk)
          .execute(),
      );
      return sortById(rows).map(rowToCause);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, CLAIM_CAUSE_LIST, brandId, query);
      return { rows: rows.map(rowToCause), total };
    },
  };
}

/** The list keys of `returnPortalListDefinition`. */
const RETURN_PORTAL_COLUMNS: ListColumns = {
  id: { column: 'return_portals.id', type: 'integer' },
  public_id: { column: 'return_portals.public_id', type: 'string' },
  name: { column: 'return_portals.name', type: 'string' },
  type: { column: 'return_portals.type', type: 'string' },
  requires_claim_causes: { column: 'return_portals.requires_claim_causes', type: 'boolean' },
  created_at: { column: 'return_portals.created_at', type: 'datetime' },
  updated_at: { column: 'return_portals.updated_at', type: 'datetime' },
};

const RETURN_PORTAL_LIST = brandTableList('return_portals', RETURN_PORTAL_COLUMNS);

const rowToPortal = (r: Selectable<ReturnPortalsTable>): ReturnPortal => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  publicId: r.public_id,
  name: r.name,
  type: r.type,
  requiresClaimCauses: fromFlag(r.requires_claim_causes),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function returnPortalRepository(executor: Executor): ReturnPortalRepository {
  const { db } = executor;
  return {
    async insert(p) {
      await claimLookup(executor, LOOKUP.returnPortal, p.publicId, p.brandId);
      await db
        .insertInto('return_portals')
        .values({
          id: p.id,
          brand_id: p.brandId,
          public_id: p.publicId,
          name: p.name,
          type: p.type,
          requires_claim_causes: toFlag(p.requiresClaimCauses),
          created_at: p.createdAt,
          updated_at: p.updatedAt,
        })
        .execute();
    },
    async findByPublicIdAnyBrand(publicId) {
      const row = await readInBrandOf(executor, LOOKUP.returnPortal, publicId, async (brandId) => {
        const found = await db
          .selectFrom('return_portals')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('public_id', '=', publicId)
          .executeTakeFirst();
        return found ?? null;
      });
      return row ? rowToPortal(row) : null;
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('return_portals').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return sortById(rows).map(rowToPortal);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, RETURN_PORTAL_LIST, brandId, query);
      return { rows: rows.map(rowToPortal), total };
    },
  };
}

/** The list keys of `alertListDefinition`. */
const ALERT_COLUMNS: ListColumns = {
  id: { column: 'alerts.id', type: 'integer' },
  kind: { column: 'alerts.kind', type: 'string' },
  status: { column: 'alerts.status', type: 'string' },
  return_id: { column: 'alerts.return_id', type: 'integer' },
  created_at: { column: 'alerts.created_at', type: 'datetime' },
  updated_at: { column: 'alerts.updated_at', type: 'datetime' },
};

const ALERT_LIST = brandTableList('alerts', ALERT_COLUMNS);

const ALERT_UPSERT = upsertByIdWithinBrand('alerts', [
  'kind',
  'return_id',
  'message',
  'status',
  'credit_note_id',
  'resolved_at',
  'updated_at',
]);

const rowToAlert = (r: Selectable<AlertsTable>): Alert => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  kind: r.kind as Alert['kind'],
  returnId: Number(r.return_id),
  message: r.message,
  status: r.status as AlertStatus,
  creditNoteId: toNullableNumber(r.credit_note_id),
  resolvedAt: r.resolved_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Alerts read inside a Postgres write transaction are locked: two credit-note requests for one alert queue, the second sees it resolved. */
export function alertRepository(executor: Executor): AlertRepository {
  const { db } = executor;
  return {
    async save(a) {
      await bulkInsert(
        executor,
        'alerts',
        [
          {
            id: a.id,
            brand_id: a.brandId,
            kind: a.kind,
            return_id: a.returnId,
            message: a.message,
            status: a.status,
            credit_note_id: a.creditNoteId,
            resolved_at: a.resolvedAt,
            created_at: a.createdAt,
            updated_at: a.updatedAt,
          },
        ],
        { conflict: ALERT_UPSERT },
      );
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        lockedInTransaction(
          executor,
          db.selectFrom('alerts').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk),
        ).execute(),
      );
      return sortById(rows).map(rowToAlert);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, ALERT_LIST, brandId, query);
      return { rows: rows.map(rowToAlert), total };
    },
  };
}
