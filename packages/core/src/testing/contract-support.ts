import { ListDefinition, ListQuery, Page, RawListQuery, sortSignature } from '../listing/list-query';
import { DecodedCursor } from '../listing/validate-list-query';

/** Parallel tests wait on real databases (Postgres row locks, retries); give them room. */
export const SLOW = 30_000;

/** Throws a marker error so tests can tell an on-purpose failure from a real one. */
export class PlannedFailure extends Error {
  constructor(label: string) {
    super(`planned failure: ${label}`);
    this.name = 'PlannedFailure';
  }
}

export type Lister<T> = (raw: RawListQuery, cursor?: DecodedCursor) => Promise<{ page: Page<T>; query: ListQuery }>;

/** Follows `next` positions as the API would after verifying its signed cursor; checks no page of a cursor walk counts. */
export async function walkByCursor<T>(
  definition: ListDefinition<T>,
  list: Lister<T>,
  raw: RawListQuery,
): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: DecodedCursor | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const { page, query } = await list(cursor ? { ...raw, cursor: 'signed-cursor' } : raw, cursor);
    if (cursor) expect(page.total).toBeNull();
    pages.push(page.items);
    if (!page.next) return pages;
    expect(page.hasMore).toBe(true);
    cursor = { resource: definition.resource, sort: sortSignature(query.sort), values: page.next.values };
  }
  throw new Error('the keyset walk did not end');
}

/** Walks a list by 0-based `page` until a page says there is no more. */
export async function walkByOffset<T>(list: Lister<T>, raw: RawListQuery): Promise<T[][]> {
  const pages: T[][] = [];
  for (let page = 0; page < 100; page++) {
    const result = (await list({ ...raw, page })).page;
    pages.push(result.items);
    if (!result.hasMore) return pages;
  }
  throw new Error('the offset walk did not end');
}
