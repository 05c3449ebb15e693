import {
  BulkLineResult,
  BulkOperation,
  BulkOperationError,
  BulkOperationRepositories,
  BulkOperationRepository,
  BulkOperationStatus,
  BulkOperationType,
  ClaimedBulkOperation,
} from '@brand/core';
import { Selectable, SqlBool, sql } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { BulkOperationsTable } from '../../tables/bulk-operations.tables';
import { withinBrand } from '../../brand-session';
import { readInAnyBrand } from '../brand-lookups';
import { deleteAtMost } from '../bounded-delete';
import { bulkInsert } from '../bulk-insert';
import { Executor, RepositoryFactories } from '../executor';
import { fromJson, toJson } from '../json-columns';

/** The list keys of `bulkOperationListDefinition`. */
const OPERATION_COLUMNS: ListColumns = {
  id: { column: 'bulk_operations.id', type: 'integer' },
  type: { column: 'bulk_operations.type', type: 'string' },
  status: { column: 'bulk_operations.status', type: 'string' },
  created_at: { column: 'bulk_operations.created_at', type: 'datetime' },
  finished_at: { column: 'bulk_operations.finished_at', type: 'datetime' },
};

const OPERATION_LIST = brandTableList('bulk_operations', OPERATION_COLUMNS);

const rowToOperation = (r: Selectable<BulkOperationsTable>): BulkOperation => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  type: r.type as BulkOperationType,
  status: r.status as BulkOperationStatus,
  userId: r.user_id === null ? null : Number(r.user_id),
  totalLines: Number(r.total_lines),
  processedLines: Number(r.processed_lines),
  failedLines: Number(r.failed_lines),
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  error: fromJson<BulkOperationError | null>(r.error, null),
});

/** Rows of `table` (lines or results) of uploads that began before `before` and never completed. */
const ofAbandonedUpload = (table: 'bulk_operation_lines' | 'bulk_operation_results', before: string) => () =>
  sql<SqlBool>`exists (select ${sql.ref('bulk_operations.id')} from ${sql.table('bulk_operations')}
    where ${sql.ref('bulk_operations.brand_id')} = ${sql.ref(`${table}.brand_id`)}
      and ${sql.ref('bulk_operations.id')} = ${sql.ref(`${table}.operation_id`)}
      and ${sql.ref('bulk_operations.status')} = 'receiving'
      and ${sql.ref('bulk_operations.created_at')} < ${before})`;

export function bulkOperationRepository(executor: Executor): BulkOperationRepository {
  const { db, dialect } = executor;

  /** The operation by id within its brand; an upload still streaming in is not found. */
  const findById = async (brandId: number, id: number): Promise<BulkOperation | null> => {
    const row = await db
      .selectFrom('bulk_operations')
      .selectAll()
      .where('brand_id', '=', brandId)
      .where('id', '=', id)
      .where('status', '!=', 'receiving')
      .executeTakeFirst();
    return row ? rowToOperation(row) : null;
  };

  /** Takes one of the brand's operations to run, locked so that concurrent claimers pass over it. */
  const claimInBrand = async (
    brandId: number,
    now: string,
    owner: string,
    until: string,
  ): Promise<ClaimedBulkOperation | null> => {
    const lapsed = db
      .selectFrom('bulk_operations')
      .selectAll()
      .where('brand_id', '=', brandId)
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('id')
      .limit(1);
    let [row] = await (dialect === 'postgres' ? lapsed.forUpdate().skipLocked() : lapsed).execute();
    if (!row) {
      // A queued one whose type has no running operation in the brand (a running one with a
      // lapsed lease was taken over above): one running operation per brand and type.
      const queued = db
        .selectFrom('bulk_operations')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('status', '=', 'queued')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('bulk_operations as running')
                .select('running.id')
                .where('running.brand_id', '=', brandId)
                .where('running.status', '=', 'running')
                .whereRef('running.type', '=', 'bulk_operations.type'),
            ),
          ),
        )
        .orderBy('id')
        .limit(1);
      [row] = await (dialect === 'postgres' ? queued.forUpdate().skipLocked() : queued).execute();
    }
    if (!row) return null;
    const startedAt = row.started_at ?? now;
    await db
      .updateTable('bulk_operations')
      .set({ status: 'running', started_at: startedAt, lease_owner: owner, lease_until: until })
      .where('brand_id', '=', brandId)
      .where('id', '=', row.id)
      .execute();
    return {
      ...rowToOperation({ ...row, status: 'running', started_at: startedAt }),
      processedThroughLine: Number(row.processed_through_line),
    };
  };

  return {
    async insert(o) {
      await bulkInsert(executor, 'bulk_operations', [
        {
          brand_id: o.brandId,
          id: o.id,
          type: o.type,
          status: o.status,
          user_id: o.userId,
          total_lines: o.totalLines,
          processed_lines: o.processedLines,
          failed_lines: o.failedLines,
          lease_owner: null,
          lease_until: null,
          chunk_attempts: 0,
          processed_through_line: 0,
          error: o.error === null ? null : toJson(o.error),
          created_at: o.createdAt,
          started_at: o.startedAt,
          finished_at: o.finishedAt,
        },
      ]);
    },
    async appendLines(brandId, operationId, lines) {
      await bulkInsert(
        executor,
        'bulk_operation_lines',
        lines.map((l) => ({
          brand_id: brandId,
          operation_id: operationId,
          line: l.line,
          body: l.text,
        })),
      );
    },
    async queue(brandId, id, totalLines) {
      const result = await db
        .updateTable('bulk_operations')
        .set({ status: 'queued', total_lines: totalLines })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('status', '=', 'receiving')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async discardReceiving(brandId, id) {
      const receiving = await db
        .selectFrom('bulk_operations')
        .select('id')
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('status', '=', 'receiving')
        .executeTakeFirst();
      if (!receiving) return;
      // The lines (and results, though an upload has none) explicitly: SQLite enforces the
      // cascade only where foreign keys are switched on.
      await db
        .deleteFrom('bulk_operation_results')
        .where('brand_id', '=', brandId)
        .where('operation_id', '=', id)
        .execute();
      await db
        .deleteFrom('bulk_operation_lines')
        .where('brand_id', '=', brandId)
        .where('operation_id', '=', id)
        .execute();
      await db.deleteFrom('bulk_operations').where('brand_id', '=', brandId).where('id', '=', id).execute();
    },
    findById,
    async findByIdAnyBrand(id) {
      // Brand by brand, as every read by a global value goes (docs/decisions/cross-brand-statements.md).
      return readInAnyBrand(executor, (brandId) => findById(brandId, id));
    },
    async list(brandId, query) {
      // An upload under way is not an operation yet: a filter that can never match it keeps it out.
      const shown = {
        ...query,
        filterGroups: [
          ...query.filterGroups,
          { or: false, filters: [{ key: 'status', operator: 'eq' as const, value: 'receiving', not: true }] },
        ],
      };
      const { rows, total } = await fetchListPage(executor, OPERATION_LIST, brandId, shown);
      return { rows: rows.map(rowToOperation), total };
    },
    async markFinished(brandId, id, ending) {
      // A plain conditional update: on Postgres it waits for the row a chunk holds and then
      // re-checks the status against the chunk's commit.
      const result = await db
        .updateTable('bulk_operations')
        .set({
          status: ending.status,
          finished_at: ending.finishedAt,
          error: ending.error === null ? null : toJson(ending.error),
        })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async claimNext(now, lease) {
      // Brand by brand (DESIGN §9: no multi-brand FOR UPDATE), from one picked at random so a
      // brand with a long queue cannot keep the others waiting.
      const brands = (await db.selectFrom('brands').select('id').orderBy('id').execute()).map((b) => Number(b.id));
      const start = Math.floor(Math.random() * brands.length);
      for (let i = 0; i < brands.length; i++) {
        const brandId = brands[(start + i) % brands.length]!;
        const claimed = await withinBrand(db, brandId, () => claimInBrand(brandId, now, lease.owner, lease.until));
        if (claimed) return claimed;
      }
      return null;
    },
    async pendingLines(brandId, operationId, afterLine, limit) {
      const rows = await db
        .selectFrom('bulk_operation_lines')
        .select(['line', 'body'])
        .where('brand_id', '=', brandId)
        .where('operation_id', '=', operationId)
        .where('line', '>', afterLine)
        .orderBy('line')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ line: Number(r.line), text: r.body }));
    },
    async hold(brandId, operationId, lease) {
      const held = await db
        .updateTable('bulk_operations')
        .set({ lease_until: lease.until })
        .where('brand_id', '=', brandId)
        .where('id', '=', operationId)
        .where('lease_owner', '=', lease.owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(held.numUpdatedRows) > 0;
    },
    async recordChunkFailure(brandId, operationId, lease) {
      const row = await db
        .updateTable('bulk_operations')
        .set({ chunk_attempts: sql`chunk_attempts + 1`, lease_until: lease.until })
        .where('brand_id', '=', brandId)
        .where('id', '=', operationId)
        .where('lease_owner', '=', lease.owner)
        .where('status', '=', 'running')
        .returning('chunk_attempts')
        .executeTakeFirst();
      return row ? Number(row.chunk_attempts) : null;
    },
    async recordChunk(brandId, operationId, lease, results) {
      // First the operation's row: a runner that lost the lease finds no row of its own and
      // writes nothing, and two runners never commit one chunk.
      const failed = results.filter((r) => r.status === 'failed').length;
      const held = await db
        .updateTable('bulk_operations')
        .set({
          processed_lines: sql`processed_lines + ${results.length}`,
          failed_lines: sql`failed_lines + ${failed}`,
          chunk_attempts: 0,
          lease_until: lease.until,
          ...(results.length === 0 ? {} : { processed_through_line: results[results.length - 1]!.line }),
        })
        .where('brand_id', '=', brandId)
        .where('id', '=', operationId)
        .where('lease_owner', '=', lease.owner)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) return false;
      if (results.length === 0) return true;
      // Every line's result in one insert; the lines themselves are not touched.
      await bulkInsert(
        executor,
        'bulk_operation_results',
        results.map((r) => ({
          brand_id: brandId,
          operation_id: operationId,
          line: r.line,
          status: r.status,
          result: toJson(r.status === 'ok' ? { id: r.id } : { errors: r.errors }),
        })),
      );
      return true;
    },
    async releaseLease(brandId, operationId, owner) {
      await db
        .updateTable('bulk_operations')
        .set({ lease_owner: null, lease_until: null })
        .where('brand_id', '=', brandId)
        .where('id', '=', operationId)
        .where('lease_owner', '=', owner)
        .execute();
    },
    async results(brandId, operationId, afterLine, limit) {
      const rows = await db
        .selectFrom('bulk_operation_results')
        .select(['line', 'status', 'result'])
        .where('brand_id', '=', brandId)
        .where('operation_id', '=', operationId)
        .where('line', '>', afterLine)
        .orderBy('line')
        .limit(limit)
        .execute();
      return rows.map((r): BulkLineResult => {
        const line = Number(r.line);
        if (r.status === 'ok')
          return { line, status: 'ok', id: fromJson<{ id: number | null }>(r.result, { id: null }).id };
        return {
          line,
          status: 'failed',
          errors: fromJson<{ errors: Record<string, unknown>[] }>(r.result, { errors: [] }).errors,
        };
      });
    },
    async deleteAbandonedUploadLines(before, limit) {
      // Results first, as every path that deletes lines does (an upload has none: cheap).
      const results = await deleteAtMost(
        db,
        'bulk_operation_results',
        ['brand_id', 'operation_id', 'line'],
        limit,
        ofAbandonedUpload('bulk_operation_results', before),
      );
      if (results >= limit) return results;
      return (
        results +
        (await deleteAtMost(
          db,
          'bulk_operation_lines',
          ['brand_id', 'operation_id', 'line'],
          limit - results,
          ofAbandonedUpload('bulk_operation_lines', before),
        ))
      );
    },
    deleteAbandonedUploads: (before, limit) =>
      deleteAtMost(db, 'bulk_operations', ['brand_id', 'id'], limit, (eb) =>
        eb.and([eb('status', '=', 'receiving'), eb('created_at', '<', before)]),
      ),
  };
}

export const bulkOperationRepositoryFactories: RepositoryFactories<BulkOperationRepositories> = {
  bulkOperations: (executor) => bulkOperationRepository(executor),
};
