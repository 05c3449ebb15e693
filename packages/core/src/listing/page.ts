import { KeysetPosition, ListDefinition, ListQuery, Page } from './list-query';

/**
 * Builds a page from the rows a repository fetched: repositories read `limit + 1` rows, and the
 * extra row only tells whether there is more. The next position holds the last row's sort values.
 */
export function toPage<T>(definition: ListDefinition<T>, query: ListQuery, rows: T[], total: number | null): Page<T> {
  const hasMore = rows.length > query.limit;
  const items = hasMore ? rows.slice(0, query.limit) : rows;
  const last = items[items.length - 1];
  const next: KeysetPosition | null =
    hasMore && last !== undefined ? { values: query.sort.map((s) => definition.fields[s.key]!.get(last)) } : null;
  return { items, hasMore, total, next };
}
