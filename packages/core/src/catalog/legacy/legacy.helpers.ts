import { ListDefinition, RawListQuery } from '../../listing/list-query';
import { ListRequest } from '../../listing/run-list';
import { validateListQuery } from '../../listing/validate-list-query';
import { DomainError, ErrorCode, Violation } from '../../shared/errors';

/**
 * The integer codes of the older `/api` interface's error table. A `DomainError` carrying one in
 * `data.legacyCode` is answered on `/api` with that integer as its `code`.
 */
export const LEGACY_ERROR_CODES = {
  /** A category already exists with this name and parent combination. */
  categoryExists: 40001,
  /** Attributes differ across the variants of a product. */
  attributesDiffer: 1000001,
  /** Another product already has the item number. */
  itemNumberTaken: 1000002,
  /** A variant already exists with this SKU. */
  skuTaken: 1000003,
  /** Deleting the last variant of a product. */
  lastVariant: 1000005,
} as const;

export type LegacyErrorCode = (typeof LEGACY_ERROR_CODES)[keyof typeof LEGACY_ERROR_CODES];

/** A failure of the older interface's table: the core code says what kind, `legacyCode` which row. */
export function legacyError(code: ErrorCode, legacyCode: LegacyErrorCode, problems: Violation[] | string): DomainError {
  if (typeof problems === 'string') return new DomainError(code, problems, { data: { legacyCode } });
  const violations = problems;
  const first = violations[0];
  const detail = violations.length === 1 && first ? first.detail : `${violations.length} fields are invalid`;
  return new DomainError(code, detail, { violations, data: { legacyCode } });
}

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

/** Whether two attribute objects have the same names (values may differ). */
export function sameAttributeNames(a: Record<string, string>, b: Record<string, string>): boolean {
  const left = Object.keys(a).sort();
  const right = Object.keys(b).sort();
  return left.length === right.length && left.every((name, i) => name === right[i]);
}

/** The attribute names, sorted (storage may reorder JSON object keys, so the wire shows them sorted). */
export function attributeNamesOf(attributes: Record<string, string>): string[] {
  return Object.keys(attributes).sort();
}
