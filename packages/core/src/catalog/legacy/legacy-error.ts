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
