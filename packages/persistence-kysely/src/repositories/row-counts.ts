import { RawBuilder, sql } from 'kysely';
import { Executor } from './executor';
import { KeptStatement, runKept } from './kept-statements';

/** Lists whose unfiltered total is kept as a counter. */
export type CountedResource = 'customers' | 'suppliers' | 'products' | 'variants' | 'orders';

// Run by every order placed and every sync: compiled once, and prepared on Postgres.
const ADJUST_ROW_COUNT: KeptStatement<never> = (db, [brandId, resource, delta, again]) =>
  db
    .insertInto('row_counts')
    .values({ brand_id: brandId, resource, row_count: delta })
    .onConflict((oc) =>
      oc.columns(['brand_id', 'resource']).doUpdateSet({ row_count: sql`row_counts.row_count + ${again}` }),
    );

/**
 * Keeps a per-brand row count in the same transaction as the insert or delete, so the total of
 * an unfiltered list is one indexed read instead of a count over every row of the brand, whose
 * cost grows with the table.
 */
export async function adjustRowCount(
  executor: Executor,
  brandId: number,
  resource: CountedResource,
  delta: number,
): Promise<void> {
  if (delta === 0) return;
  await runKept(executor, ADJUST_ROW_COUNT, [brandId, resource, delta, delta]);
}

/** The unfiltered total of a list as a scalar SQL expression, for `fetchList` to read in the page's own statement. */
export function rowCountSql(brandId: number, resource: CountedResource): RawBuilder<number> {
  return sql<number>`coalesce((select row_count from row_counts where brand_id = ${brandId} and resource = ${resource}), 0)`;
}
