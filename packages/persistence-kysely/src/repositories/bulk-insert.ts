import { Insertable, Selectable } from 'kysely';
import { Database } from '../database';
import { withinBrand } from '../brand-session';
import { groupBy, MAX_PARAMETERS } from './batches';
import { prepareOnPostgres } from '../prepared-statements';
import { executeText, Executor } from './executor';

type Table = keyof Database;

/** Double-quoted identifier; only ever called with the schema's own table and column names. */
const id = (name: string): string => `"${name}"`;

export interface BulkInsertOptions {
  /**
   * SQL following the VALUES list (`on conflict … do update …`), the same in both dialects.
   * Built from the schema's column names by the helpers below, never from input.
   */
  conflict?: string;
  /**
   * Return the written rows: `true` for `returning *`, or the text of the returning list (columns
   * and expressions on the written row, built from the schema's names, never from input).
   */
  returning?: boolean | string;
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
 * faster (a product sync cut into powers of two took more CPU, not less).
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
 * The placeholder lists of an insert of `rowCount` rows of `columnCount` values: `(?, ?), (?, ?)`
 * on SQLite, `($1, $2), ($3, $4)` on Postgres. They depend on nothing else, and a sync's large
 * batches repeat the same few sizes (500 variants, 500 ledger rows), whose lists (tens of KB)
 * took a noticeable share of a product sync to make anew; the last few made are kept.
 */
const KEPT_VALUE_LISTS = 16;
const valueLists = new Map<string, string>();

function valueList(dialect: Executor['dialect'], columnCount: number, rowCount: number): string {
  const key = `${dialect}:${columnCount}:${rowCount}`;
  const kept = valueLists.get(key);
  if (kept !== undefined) return kept;
  let mark = 0;
  const tuple = () =>
    `(${Array.from({ length: columnCount }, () => (dialect === 'postgres' ? `$${++mark}` : '?')).join(', ')})`;
  const list = Array.from({ length: rowCount }, tuple).join(', ');
  if (valueLists.size >= KEPT_VALUE_LISTS) valueLists.delete(valueLists.keys().next().value!);
  valueLists.set(key, list);
  return list;
}

/** The SQL of an insert of `rowCount` rows of `columns`, with placeholders for every value. */
function insertText(
  dialect: Executor['dialect'],
  table: string,
  columns: readonly string[],
  rowCount: number,
  options: BulkInsertOptions,
): string {
  return (
    `insert into ${id(table)} (${columns.map(id).join(', ')}) values ${valueList(dialect, columns.length, rowCount)}` +
    `${options.conflict ? ` ${options.conflict}` : ''}${options.returning ? ` returning ${options.returning === true ? '*' : options.returning}` : ''}`
  );
}

/**
 * The SQL texts of small inserts (an order, its lines, a timeline entry), made once per shape
 * and handed out as the same string object. SQLite's statement cache (connection.ts) finds a
 * prepared statement by its text, and hashing a text made anew costs time in proportion to its
 * length: placing an order spent more there on its upsert's text than on running it. A text
 * kept here is found by reference. Large batches (syncs) are made anew: their
 * texts are long and their sizes many, and hashing is small beside running them.
 */
const MAX_KEPT_TEXT_ROWS = 64;

/**
 * Kept texts of at most this many rows are also prepared on each Postgres connection that runs
 * them (prepared-statements.ts): an order's writes (the order, its lines, the stock upsert and
 * movements, its events and timeline entry) were parsed and planned on every run, which cost the
 * database more per order than planning all of the order's reads. The bound keeps the statements
 * a connection holds few and small; a larger batch runs unnamed, as before.
 */
const MAX_PREPARED_ROWS = 16;

interface TextNode {
  readonly next: Map<unknown, TextNode>;
  text?: string;
}
const keptTexts: TextNode = { next: new Map() };

/** The node under `part`, made on the first visit. */
function step(node: TextNode, part: unknown): TextNode {
  let child = node.next.get(part);
  if (!child) node.next.set(part, (child = { next: new Map() }));
  return child;
}

/**
 * The text kept for an insert of this shape (compared part by part: dialect, table, conflict,
 * returning, row count, then the column names), made by `make` the first time.
 */
function keptText(
  dialect: Executor['dialect'],
  table: string,
  options: BulkInsertOptions,
  rowCount: number,
  columns: readonly string[],
  make: () => string,
): string {
  let node = step(
    step(step(step(step(keptTexts, dialect), table), options.conflict), options.returning ?? false),
    rowCount,
  );
  for (const column of columns) node = step(node, column);
  if (node.text === undefined) {
    node.text = make();
    if (dialect === 'postgres' && rowCount <= MAX_PREPARED_ROWS) prepareOnPostgres(node.text);
  }
  return node.text;
}

/**
 * Multi-row INSERT of many rows, cut into statements that bind at most `MAX_PARAMETERS` values.
 *
 * Why not `db.insertInto(table).values(rows)`: Kysely builds and compiles a node tree per value,
 * which for a 500-row insert takes as long as SQLite takes to run it. Syncs write
 * thousands of rows per request, so their batches are rendered here as one SQL string with
 * placeholders; the values still travel as bound parameters, never inside the SQL text. Every
 * row must have the same keys (the row mappers guarantee it).
 *
 * Returns how many rows were inserted or updated (an upsert whose update was skipped by its
 * `where` counts nothing) and, when asked, the written rows.
 */
export async function bulkInsert<T extends Table>(
  executor: Executor,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  options: BulkInsertOptions = {},
): Promise<{ written: number; rows: Selectable<Database[T]>[] }> {
  if (executor.dialect === 'postgres' && rows.length > 0 && 'brand_id' in rows[0]!) {
    // Rows of several brands (a request log flush, a test's two brands) go brand by brand, each
    // in its own statements inside its brand: one brand per statement, and row-level security
    // checks every row written against the brand it is written in (DESIGN §9).
    const byBrand = groupBy(rows, (row) => Number((row as { brand_id: unknown }).brand_id));
    const out: { written: number; rows: Selectable<Database[T]>[] } = { written: 0, rows: [] };
    for (const [brandId, ofBrand] of byBrand) {
      const written = await withinBrand(executor.db, brandId, () => insertRows(executor, table, ofBrand, options));
      out.written += written.written;
      out.rows.push(...written.rows);
    }
    return out;
  }
  return insertRows(executor, table, rows, options);
}

async function insertRows<T extends Table>(
  executor: Executor,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  options: BulkInsertOptions,
): Promise<{ written: number; rows: Selectable<Database[T]>[] }> {
  const { dialect } = executor;
  const out: { written: number; rows: Selectable<Database[T]>[] } = { written: 0, rows: [] };
  if (rows.length === 0) return out;
  const columns = Object.keys(rows[0]!) as (keyof Insertable<Database[T]> & string)[];
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const powersOfTwo = options.reuseStatements === true && dialect === 'sqlite';
  for (const [start, end] of statementRanges(rows.length, perStatement, powersOfTwo)) {
    const rowCount = end - start;
    const parameters: unknown[] = new Array(rowCount * columns.length);
    let at = 0;
    for (let index = start; index < end; index++) {
      const row = rows[index]!;
      for (const column of columns) parameters[at++] = row[column] ?? null;
    }
    const text =
      rowCount <= MAX_KEPT_TEXT_ROWS
        ? keptText(dialect, table, options, rowCount, columns, () =>
            insertText(dialect, table, columns, rowCount, options),
          )
        : insertText(dialect, table, columns, rowCount, options);
    const result = await executeText<Selectable<Database[T]>>(executor, text, parameters);
    out.written += options.returning ? result.rows.length : Number(result.numAffectedRows ?? 0);
    if (options.returning) out.rows.push(...result.rows);
  }
  return out;
}

/** Upsert clauses made so far, by update column list and table. */
const upsertTexts = new WeakMap<readonly string[], Map<string, string>>();

/**
 * `on conflict (brand_id, id) do update set c = excluded.c, …`: an upsert by id within the brand
 * (the composite primary key, DESIGN §9).
 */
export function upsertByIdWithinBrand<T extends Table>(
  table: T,
  updateColumns: readonly (keyof Database[T] & string)[],
): string {
  // Kept per column list (a module constant of each repository), so that every binding of a
  // repository passes the same text object on to keptText and the statement cache.
  let byTable = upsertTexts.get(updateColumns);
  if (!byTable) upsertTexts.set(updateColumns, (byTable = new Map<string, string>()));
  const kept = byTable.get(table);
  if (kept !== undefined) return kept;
  const set = updateColumns.map((c) => `${id(c)} = excluded.${id(c)}`).join(', ');
  const text = `on conflict (${id('brand_id')}, ${id('id')}) do update set ${set}`;
  byTable.set(table, text);
  return text;
}
