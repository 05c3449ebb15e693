import { DocumentType, ExportScope } from '@brand/core';
import { RawBuilder, SqlBool, sql } from 'kysely';
import { Dialect } from '../../storage';
import { Executor } from '../executor';

/**
 * What the document repositories share: row locks inside Postgres write transactions and the
 * export scope as SQL.
 */

/**
 * Inside a Postgres transaction the documents read are locked until it ends, in id order (two
 * writers then queue instead of deadlocking): two requests that change one document (a deliver
 * and a cancel, two bookings, a regulation and a cancel) run one after the other instead of the
 * later one overwriting the earlier one with what it read before. SQLite transactions are
 * serialised already; plain reads (`uow.read`) take no lock.
 */
export function lockedInTransaction<Q extends { orderBy(column: 'id'): Q; forUpdate(): Q }>(
  { db, dialect }: Executor,
  query: Q,
): Q {
  return dialect === 'postgres' && db.isTransaction ? query.orderBy('id').forUpdate() : query;
}

/**
 * The export scope on `table`: status one of `scope.statuses` (when given) and no mark of the
 * system at or before `notExportedSince`. The NOT EXISTS is one probe of the document_exports
 * primary key (brand_id, document_type, document_id, system_id) per candidate row, so walking
 * the export by keyset costs the same on page 1,000 as on page 1. Returns null when no status
 * can match (an empty status list).
 */
export function exportScopeSql(
  dialect: Dialect,
  table: string,
  documentType: DocumentType,
  brandId: number,
  scope: ExportScope,
): RawBuilder<SqlBool> | null {
  // On Postgres, `offset 0` keeps the NOT EXISTS a correlated subplan probing the key with all four
  // columns, as SQLite runs it. Without it the planner turns it into an anti join, and on a
  // freshly loaded table (no statistics yet) it was seen to pick a join that rescans every mark of
  // the system for each order, so a page's time grew with the marks of every brand.
  const fence = dialect === 'postgres' ? sql` offset 0` : sql``;
  const notMarked = sql<SqlBool>`not exists (select 1 from document_exports e where e.brand_id = ${brandId} and e.document_type = ${documentType} and e.document_id = ${sql.ref(`${table}.id`)} and e.system_id = ${scope.systemId} and e.exported_at <= ${scope.notExportedSince}${fence})`;
  if (scope.statuses === undefined) return notMarked;
  if (scope.statuses.length === 0) return null;
  return sql<SqlBool>`${sql.ref(`${table}.status`)} in (${sql.join([...scope.statuses])}) and ${notMarked}`;
}

export const sortById = <R extends { id: number }>(rows: R[]): R[] => rows.sort((a, b) => Number(a.id) - Number(b.id));
