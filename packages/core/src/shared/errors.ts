/**
 * Expected business failures carry a stable code and structured data, never an HTTP status:
 * the API owns the one exhaustive code → status map. Unexpected failures are plain `Error`s.
 */
export type ErrorCode =
  | 'validation_failed'
  | 'invalid_list_query'
  | 'not_found'
  | 'has_dependents'
  | 'invalid_state_transition'
  | 'duplicate'
  | 'unauthenticated'
  /**
   * Log-in or OAuth client authentication failed. One code and one message for every reason (an
   * unknown e-mail address, a wrong password), so the answer never tells which.
   */
  | 'invalid_credentials'
  /**
   * Too many failed log-ins for the account or from the client address: refused, password
   * unchecked, until the window passes. `data.retry_after_seconds` says when to try again.
   */
  | 'too_many_login_attempts'
  | 'forbidden'
  | 'concurrency_conflict'
  /** The thing asked to change has already ended (a finished bulk operation cancelled): nothing changed. */
  | 'already_finished'
  | 'image_download_failed'
  /** The `Idempotency-Key` was first used with another request (method, path or body): nothing ran. */
  | 'idempotency_key_reused'
  /** The first request with this `Idempotency-Key` is still running: nothing ran; retry later. */
  | 'idempotency_key_in_use'
  /**
   * The storage behind a port cannot serve the request for now: unreachable or restarting,
   * out of disk space, read-only, or busy beyond its timeout. Retrying later may succeed;
   * nothing of the failed work was kept.
   */
  | 'storage_unavailable';

/** One field-level problem; `pointer` is a JSON pointer into the request (`/customers/3/name`). */
export interface Violation {
  pointer: string;
  detail: string;
}

/**
 * The one error a use case throws for an expected failure: a stable `code` (the API maps it to an
 * HTTP status), a message, the field `violations` of a validation failure and structured `data`.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly violations: Violation[];
  readonly data: Record<string, unknown>;

  /** `cause`: the lower-level failure behind this one (e.g. a driver error), for the logs only. */
  constructor(
    code: ErrorCode,
    detail: string,
    options: { violations?: Violation[]; data?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.violations = options.violations ?? [];
    this.data = options.data ?? {};
  }

  static validation(violations: Violation[]): DomainError {
    const first = violations[0];
    const detail = violations.length === 1 && first ? first.detail : `${violations.length} fields are invalid`;
    return new DomainError('validation_failed', detail, { violations });
  }

  static notFound(what: string, id: string | number): DomainError {
    return new DomainError('not_found', `${what} ${id} was not found`, { data: { resource: what, id } });
  }
}

/**
 * Whether a caught value is a `DomainError` (an expected failure) rather than a bug or an
 * infrastructure error.
 */
export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** Turns a JSON pointer (`/customers/3/name`) into the dotted form used in messages (`customers[3].name`). */
export function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .filter((part) => part !== '')
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/** Collects violations while validating a whole request, so that nothing is written unless all of it is valid. */
export class ViolationList {
  private readonly items: Violation[] = [];

  add(pointer: string, message: string): void {
    this.items.push({ pointer, detail: `${pointerToPath(pointer)} ${message}` });
  }

  get isEmpty(): boolean {
    return this.items.length === 0;
  }

  /** Throws a `validation_failed` DomainError naming every collected field, if any. */
  throwIfAny(): void {
    if (this.items.length > 0) throw DomainError.validation(this.items);
  }
}
