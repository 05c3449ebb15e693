import { ListDefinition, RawListQuery } from '../../listing/list-query';
import { ListRequest } from '../../listing/run-list';
import { validateListQuery } from '../../listing/validate-list-query';
import { DomainError } from '../../shared/errors';

/**
 * The older interface pages with `page` and `limit` and always answers with `total`; it has no
 * cursors, so `cursor` and `starting_after` are refused rather than ignored.
 */
export function legacyListRequest(request: ListRequest): ListRequest {
  const { cursor, starting_after } = request.query;
  const refused = [
    cursor !== undefined ? 'cursor' : null,
    starting_after !== undefined ? 'starting_after' : null,
  ].filter((p): p is string => p !== null);
  if (refused.length > 0) {
    throw new DomainError(
      'invalid_list_query',
      `${refused.join(' and ')} cannot be used on the older interface; page through it with page (from 0) and limit`,
      {
        violations: refused.map((p) => ({
          pointer: `/${p}`,
          detail: `${p} cannot be used on the older interface; page through it with page (from 0) and limit`,
        })),
      },
    );
  }
  const { filter_groups, sort, includes, limit, page } = request.query;
  return { brandId: request.brandId, query: { filter_groups, sort, includes, limit, page } };
}

/** Validates `includes` of a single-object read (`GET /api/categories/{id}`) against the list's includes. */
export function validateIncludes<T>(definition: ListDefinition<T>, includes: RawListQuery['includes']): string[] {
  return validateListQuery(definition, { includes }).includes;
}
