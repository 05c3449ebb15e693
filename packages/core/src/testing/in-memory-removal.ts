/**
 * Removes from `rows`, in place, at most `limit` rows that `matches` (the first ones in stored
 * order) and answers them: the in-memory side of the SQL adapters' bounded housekeeping deletes.
 */
export function removeUpTo<T>(rows: T[], matches: (row: T) => boolean, limit: number): T[] {
  const removed: T[] = [];
  for (let index = 0; index < rows.length && removed.length < limit; ) {
    if (matches(rows[index]!)) removed.push(...rows.splice(index, 1));
    else index += 1;
  }
  return removed;
}
