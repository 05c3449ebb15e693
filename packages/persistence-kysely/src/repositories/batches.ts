/**
 * Batching helpers. A sync writes hundreds of rows per table; one multi-row statement per table
 * is what makes it fast, but a statement may bind only so many parameters (SQLite 32,766,
 * Postgres 65,535), so rows and `in (…)` lists are cut into chunks that stay well below both.
 */

/** Bound parameters one statement may use; below SQLite's and Postgres's limits. */
export const MAX_PARAMETERS = 30_000;

/** Values of one `in (…)` list. */
export const MAX_IN_LIST = 5_000;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Runs a query per chunk of `values` (an `in (…)` list) and concatenates the rows. */
export async function selectInChunks<V, R>(values: readonly V[], select: (chunk: V[]) => Promise<R[]>): Promise<R[]> {
  if (values.length === 0) return [];
  if (values.length <= MAX_IN_LIST) return select([...values]);
  const rows: R[] = [];
  for (const part of chunk(values, MAX_IN_LIST)) rows.push(...(await select(part)));
  return rows;
}

/** Runs a statement per chunk of `values` (deletes and updates by id). */
export async function runInChunks<V>(values: readonly V[], run: (chunk: V[]) => Promise<unknown>): Promise<void> {
  for (const part of chunk(values, MAX_IN_LIST)) await run(part);
}

export const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** Groups rows by a numeric key, keeping their order. */
export function groupBy<R>(rows: readonly R[], key: (row: R) => number): Map<number, R[]> {
  const groups = new Map<number, R[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
