import { CompiledQuery, Insertable, Selectable } from 'kysely';
import { Database } from '../database';
import { MAX_PARAMETERS } from './batches';
import { Executor } from './executor';

type Table = keyof Database;

/** Double-quoted identifier; only ever called with the schema's own table and column names. */
const id = (name: string): string => `"${name}"`;

export interface BulkInsertOptions {
  /**
   * SQL following the VALUES list (`on conflict … do update …`), the same in both dialects.
   * Built from the schema's column names by the helpers below, never from input.
   */
  conflict?: string;
  /** Return the written rows (`returning *`). */
  returning?: boolean;
  /**
   * For batches whose size changes with every call (the request log's flushes): on SQLite, cut
   * the rows into power-of-two runs so that a few statement texts are prepared once and reused.
   */
  reuseStatements?: boolean;
}

/**
 * How `count` rows are cut into statements of at most `perStatement` rows. SQLite keeps prepared
 * statements by their SQL text (see connection.ts), and a statement of a new length is compiled
 * first, which for hundreds of rows costs about as much as running it: the request log's flushes,
 * whose size changes every time, compiled a new statement almost every time. Cut into
 * power-of-two runs (300 rows: 256 + 32 + 8 + 4), they use a few statement texts over and over.
 * Syncs keep one statement per table: their batches repeat in size, and fewer statements run
 * faster (a product sync took 8% more CPU cut into powers of two).
 */
function statementRanges(count: number, perStatement: number, powersOfTwo: boolean): [number, number][] {
  const ranges: [number, number][] = [];
  for (let start = 0; start < count; ) {
    const left = Math.min(perStatement, count - start);
    const size = powersOfTwo ? 2 ** Math.floor(Math.log2(left)) : left;
    ranges.push([start, start + size]);
    start += size;
  }
  return ranges;
}

/**
 * Multi-row INSERT of many rows, cut into statements that bind at most `MAX_PARAMETERS` values.
 *
 * Why not `db.insertInto(table).values(rows)`: Kysely builds and compiles a node tree per value,
 * which for a 500-row insert takes as long as SQLite takes to run it (~10–20 ms). Syncs write
 * thousands of rows per request, so their batches are rendered here as one SQL string with
 * placeholders; the values still travel as bound parameters, never inside the SQL text. Every
 * row must have the same keys (the row mappers guarantee it).
 *
 * Returns how many rows were inserted or updated (an upsert whose update was skipped by its
 * `where` counts nothing) and, when asked, the written rows.
 */
export async function bulkInsert<T extends Table>(
  { db, dialect }: Executor,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  options: BulkInsertOptions = {},
): Promise<{ written: number; rows: Selectable<Database[T]>[] }> {
  const out: { written: number; rows: Selectable<Database[T]>[] } = { written: 0, rows: [] };
  if (rows.length === 0) return out;
  const columns = Object.keys(rows[0]!) as (keyof Insertable<Database[T]> & string)[];
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const head = `insert into ${id(table)} (${columns.map(id).join(', ')}) values `;
  const tail = `${options.conflict ? ` ${options.conflict}` : ''}${options.returning ? ' returning *' : ''}`;
  const powersOfTwo = options.reuseStatements === true && dialect === 'sqlite';
  for (const [start, end] of statementRanges(rows.length, perStatement, powersOfTwo)) {
    const part = rows.slice(start, end);
    const parameters: unknown[] = [];
    const tuples: string[] = [];
    for (const row of part) {
      const marks: string[] = [];
      for (const column of columns) {
        parameters.push(row[column] ?? null);
        marks.push(dialect === 'postgres' ? `$${parameters.length}` : '?');
      }
      tuples.push(`(${marks.join(', ')})`);
    }
    const result = await db.executeQuery<Selectable<Database[T]>>(
      CompiledQuery.raw(head + tuples.join(', ') + tail, parameters),
    );
    out.written += options.returning ? result.rows.length : Number(result.numAffectedRows ?? 0);
    if (options.returning) out.rows.push(...result.rows);
  }
  return out;
}

/**
 * `on conflict (id) do update set c = excluded.c, …` that leaves a row of another brand alone:
 * an upsert by id within the brand.
 */
export function upsertByIdWithinBrand<T extends Table>(
  table: T,
  updateColumns: readonly (keyof Database[T] & string)[],
): string {
  const set = updateColumns.map((c) => `${id(c)} = excluded.${id(c)}`).join(', ');
  return `on conflict (${id('id')}) do update set ${set} where ${id(table)}.${id('brand_id')} = excluded.${id('brand_id')}`;
}

/**
 * Upserts by id skip the update of a row of another brand; fewer rows written than sent means
 * such an id was passed, which is a programming error in the caller, not a conflict to retry.
 */
export function assertAllWritten(written: number, expected: number, what: string): void {
  if (written < expected) throw new Error(`a ${what} id passed belongs to another brand`);
}
