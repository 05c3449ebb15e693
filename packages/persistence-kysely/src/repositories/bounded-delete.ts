import { Expression, ExpressionBuilder, Kysely, SqlBool, sql } from 'kysely';
import { Database } from '../database';
import { forEachBrand } from './each-brand';

/** Any table with any columns: the view `deleteAtMost` builds its statement on. */
type AnyTables = Record<string, Record<string, unknown>>;

/**
 * Deletes at most `limit` rows of `table` that `matching` selects, in one statement, and answers
 * how many went: `delete from t where <matching> and (<key>) in (select <key> from t where
 * <matching> limit n)`, the form both dialects take (neither Postgres nor a stock SQLite has
 * DELETE … LIMIT). The housekeeping sweeps use it so a pass over a large backlog is a series of
 * short statements.
 *
 * `matching` is applied to the deleted rows as well as to the chosen ones on purpose: on Postgres
 * a row changed by a concurrent transaction after the choice (a session touched, a code linked to
 * its grant, a throttle window reopened by a new attempt) is checked again as it now is, and kept
 * when it no longer matches. `matching` must read only `table`'s own columns, or correlate through
 * the table's name (it is the innermost table of that name in both places).
 */
export async function deleteAtMost<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  key: readonly (keyof Database[T] & string)[],
  limit: number,
  matching: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>,
): Promise<number> {
  return (await deleteBrandByBrand(db, table, key, limit, matching, null)).length;
}

/**
 * `deleteAtMost` that answers one column of each deleted row (a token's hash, to give up its
 * look-up in `brand_lookups` in the same transaction).
 */
export function deleteAtMostReturning<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  key: readonly (keyof Database[T] & string)[],
  limit: number,
  matching: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>,
  returning: keyof Database[T] & string,
): Promise<unknown[]> {
  return deleteBrandByBrand(db, table, key, limit, matching, returning);
}

/**
 * A tenant table (its key leads with brand_id) is swept one brand at a time, each statement
 * constrained to its brand (DESIGN §9: one brand per statement, so a tenant-sharded Postgres runs
 * it on one shard), until `limit` rows went; a global table in one statement. Brands come from
 * `brands` in id order: a sweep walks them all, which costs one short statement per brand and
 * table when there is nothing to delete.
 */
async function deleteBrandByBrand<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  key: readonly (keyof Database[T] & string)[],
  limit: number,
  matching: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>,
  returning: string | null,
): Promise<unknown[]> {
  const run = async (brandId: number | null, rows: number): Promise<unknown[]> => {
    const statement = boundedDelete(db, table, key, rows, matching, brandId);
    if (returning === null) return Array.from({ length: Number((await statement.executeTakeFirst()).numDeletedRows) });
    return (await statement.returning(sql.ref(returning).as('value')).execute()).map((row) => row.value);
  };
  if (key[0] !== 'brand_id') return run(null, limit);
  const deleted: unknown[] = [];
  await forEachBrand(db, async (brandId) => {
    deleted.push(...(await run(brandId, limit - deleted.length)));
    return deleted.length < limit;
  });
  return deleted;
}

function boundedDelete<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  key: readonly (keyof Database[T] & string)[],
  limit: number,
  matching: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>,
  brandId: number | null,
) {
  const columns = sql.join(key.map((column) => sql.ref(column)));
  // The query builder's types cannot follow a table chosen by a type parameter through select and
  // where; the statement is the same for every table, so it is built on the untyped view.
  const untyped = db as unknown as Kysely<AnyTables>;
  const given = matching as unknown as (eb: ExpressionBuilder<AnyTables, string>) => Expression<SqlBool>;
  const matches = (eb: ExpressionBuilder<AnyTables, string>): Expression<SqlBool> =>
    brandId === null ? given(eb) : eb.and([eb('brand_id', '=', brandId), given(eb)]);
  const name: string = table;
  const chosen = untyped
    .selectFrom(name)
    .select(key.map((column) => sql.ref(column).as(column)))
    .where(matches)
    .limit(limit);
  return (
    untyped
      .deleteFrom(name)
      .where(matches)
      // The subquery brings its own parentheses.
      .where(sql<SqlBool>`(${columns}) in ${chosen}`)
  );
}
