import { Request } from 'express';
import {
  DecodedCursor,
  KeysetPosition,
  ListDefinition,
  ListQuery,
  ListRequest,
  Page,
  RawListQuery,
  sortSignature,
  validateListQuery,
} from '@brand/core';
import { CursorCodec } from './cursor-codec';

/** The list vocabulary's parameters, taken from the query string as qs parsed it (PHP bracket notation). */
export function rawListQuery(query: Request['query']): RawListQuery {
  const { filter_groups, sort, includes, limit, page, cursor, starting_after } = query as Record<string, unknown>;
  return { filter_groups, sort, includes, limit, page, cursor, starting_after };
}

/** A core list request for the principal's brand, with the cursor (if any) checked and decoded. */
export async function listRequest(req: Request, brandId: number, cursors: CursorCodec): Promise<ListRequest> {
  const query = rawListQuery(req.query);
  const cursor: DecodedCursor | undefined = query.cursor === undefined ? undefined : await cursors.decode(query.cursor);
  return { brandId, query, ...(cursor ? { cursor } : {}) };
}

/** The page envelope every list answers with: the items under the list's key, `has_more`, `next_cursor`, and `total` when counted. */
export type ListResponse<K extends string, W> = { [key in K]: W[] } & {
  has_more: boolean;
  next_cursor: string | null;
  total?: number;
};

/** The signed cursor of the page after this one (the position of its last row), or null on the last page. */
export async function nextCursorOf<T>(
  result: { page: Page<T>; query: ListQuery },
  definition: Pick<ListDefinition<T>, 'resource'>,
  cursors: CursorCodec,
): Promise<string | null> {
  const { page, query } = result;
  const next: KeysetPosition | null = page.next;
  return page.hasMore && next
    ? cursors.encode({ resource: definition.resource, sort: sortSignature(query.sort), values: next.values })
    : null;
}

/** Shapes a page for the wire, signing the position of its last row as the next cursor. */
export async function listResponse<K extends string, T, W>(
  key: K,
  result: { page: Page<T>; query: ListQuery },
  definition: Pick<ListDefinition<T>, 'resource'>,
  cursors: CursorCodec,
  present: (item: T) => W,
): Promise<ListResponse<K, W>> {
  const { page } = result;
  const nextCursor = await nextCursorOf(result, definition, cursors);
  const envelope = {
    [key]: page.items.map(present),
    has_more: page.hasMore,
    next_cursor: nextCursor,
    ...(page.total !== null ? { total: page.total } : {}),
  };
  return envelope as ListResponse<K, W>;
}

/**
 * The includes[] of a single document (`GET /v10/orders/{id}` …), checked as list includes are:
 * an unknown name is a 422 naming the parameter.
 */
export function detailIncludes(req: Request, resource: string, allowed: readonly string[]): string[] {
  const definition: ListDefinition<unknown> = { resource, fields: {}, sortKeys: [], filterKeys: [], includes: allowed };
  return validateListQuery(definition, { includes: rawListQuery(req.query).includes }).includes;
}

/**
 * A list request for exactly these ids (one page holds them all), to answer a mark-as-exported
 * call with the documents as the call left them, marks included.
 */
export function listRequestForIds(brandId: number, ids: readonly number[]): ListRequest {
  const distinct = [...new Set(ids)];
  return {
    brandId,
    query: {
      filter_groups: [{ filters: [{ key: 'id', operator: 'in', value: distinct.map(String) }] }],
      limit: String(Math.max(1, distinct.length)),
    },
  };
}
