import { ListDefinition } from '../listing/list-query';

/**
 * The list definition of a resource's export GET: same keys and includes as its list, but its
 * own cursor namespace (a cursor of `GET /v10/orders` is refused by `GET /v10/orders/export`).
 * Exports are walked by cursor only and never counted: a count of "not yet exported for this
 * system" would cost a scan of every document on every page.
 */
export function exportListDefinition<T>(
  list: ListDefinition<T>,
  includes: readonly string[] = list.includes,
): ListDefinition<T> {
  return { ...list, resource: `${list.resource}_export`, includes, cursorOnly: true };
}
