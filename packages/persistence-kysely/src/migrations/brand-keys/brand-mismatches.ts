import { Kysely, sql } from 'kysely';
import { rowIdentity, TableKeyPlan } from './brand-key-plan';

/** At most this many offending rows are named per foreign key: enough to find the cause. */
const ROWS_NAMED_PER_KEY = 20;

/**
 * Rows whose brand disagrees with the brand of the row they point at: the composite keys would
 * refuse them, and no rule says which of the two brands is right. Each is named (table, column,
 * row, both brands), so an operator can decide before running the migration again.
 */
export async function findBrandMismatches(db: Kysely<unknown>, plans: readonly TableKeyPlan[]): Promise<string[]> {
  const found: string[] = [];
  for (const plan of plans) {
    const identity = rowIdentity(plan.table);
    for (const { before, changed } of plan.foreignKeys) {
      if (!changed) continue;
      const joinOn = sql.join(
        before.columns.map((column, i) => sql`p.${sql.ref(before.referencedColumns[i]!)} = c.${sql.ref(column)}`),
        sql` and `,
      );
      const { rows } = await sql<Record<string, unknown>>`
        select ${sql.join(identity.map((column) => sql`c.${sql.ref(column)} as ${sql.ref(`row_${column}`)}`))},
               ${sql.join(before.columns.map((column) => sql`c.${sql.ref(column)} as ${sql.ref(`ref_${column}`)}`))},
               c.brand_id as row_brand, p.brand_id as referenced_brand
          from ${sql.table(plan.table.name)} c
          join ${sql.table(before.referencedTable)} p on ${joinOn}
         where p.brand_id <> c.brand_id
         limit ${ROWS_NAMED_PER_KEY}`.execute(db);
      for (const row of rows) {
        const rowName = identity.map((column) => `${column} ${String(row[`row_${column}`])}`).join(', ');
        const referenced = before.columns.map((column) => String(row[`ref_${column}`])).join(', ');
        found.push(
          `${plan.table.name}.${before.columns.join('+')}: row ${rowName} of brand ${String(row.row_brand)} ` +
            `points at ${before.referencedTable} ${before.referencedColumns.join('+')} ${referenced} of brand ${String(row.referenced_brand)}`,
        );
      }
    }
  }
  return found;
}

export class BrandMismatchError extends Error {
  constructor(readonly mismatches: readonly string[]) {
    super(
      `brand keys: ${mismatches.length} row(s) point at a row of another brand; nothing was changed. ` +
        `Correct or delete them, then migrate again:\n${mismatches.map((m) => `  - ${m}`).join('\n')}`,
    );
    this.name = 'BrandMismatchError';
  }
}
