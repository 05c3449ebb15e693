import { ListDefinition, ListQuery, ListRows, Page, RawListQuery } from './list-query';
import { toPage } from './page';
import { DecodedCursor, validateListQuery } from './validate-list-query';

/** A list request as every list use case takes it. */
export interface ListRequest {
  brandId: number;
  query: RawListQuery;
  /** The request's cursor after the API verified its signature; undefined when absent or forged. */
  cursor?: DecodedCursor;
}

/** Validates the query, lets the repository fetch `limit + 1` rows, and shapes the page. */
export async function runList<T>(
  definition: ListDefinition<T>,
  request: ListRequest,
  fetch: (query: ListQuery) => Promise<ListRows<T>>,
): Promise<{ page: Page<T>; query: ListQuery }> {
  const query = validateListQuery(definition, request.query, request.cursor);
  const { rows, total } = await fetch(query);
  return { page: toPage(definition, query, rows, total), query };
}
