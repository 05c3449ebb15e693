import type { components } from './generated/api';

/** One error object of the API's error envelope `{"errors": [...]}`. */
export type ApiErrorObject = components['schemas']['ErrorObject'];

/** The response header carrying the id the API gave the request (every answer has one). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

function isErrorEnvelope(body: unknown): body is { errors: ApiErrorObject[] } {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as { errors?: unknown }).errors) &&
    (body as { errors: unknown[] }).errors.length > 0
  );
}

/**
 * A non-2xx answer of the API. The fields of the first error object are lifted onto the error
 * (`code`, `title`, `detail`, `pointer` …) because most answers carry one; `errors` holds them all
 * (a 422 names each invalid field). `code` is the API's stable string (`validation_failed`,
 * `precondition_failed`, `idempotency_key_in_use` …) to branch on; the older `/api` interface
 * answers integers.
 */
export class BrandApiError extends Error {
  override readonly name = 'BrandApiError';
  readonly status: number;
  readonly code: string | number;
  readonly title: string;
  readonly detail: string;
  /** JSON pointer into the request body (`/customers/0/name`). */
  readonly pointer: string | null;
  /** The query parameter at fault (`filter_groups[0][filters][0][key]`). */
  readonly parameter: string | null;
  /** The request header at fault (`If-Match` on a 412). */
  readonly header: string | null;
  /** `X-Request-Id` of the answer. */
  readonly requestId: string | null;
  /** The current `ETag` (a 412 sends it, so the caller can read again and decide). */
  readonly etag: string | null;
  /** `Retry-After` in seconds, when the answer gives one as a number of seconds or a date. */
  readonly retryAfterSeconds: number | null;
  readonly errors: readonly ApiErrorObject[];
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;

  constructor(init: {
    status: number;
    body: unknown;
    headers: Headers;
    method: string;
    url: string;
    retryAfterSeconds: number | null;
  }) {
    // An answer from something in front of the API (a proxy's HTML page) has no envelope: it is
    // still an error of this kind, with a code naming the status.
    const errors: ApiErrorObject[] = isErrorEnvelope(init.body)
      ? init.body.errors
      : [{ status: init.status, code: `http_${init.status}`, title: `HTTP ${init.status}`, detail: '' }];
    const first = errors[0]!;
    super(`${init.method} ${init.url} answered ${init.status} ${first.code}: ${first.detail || first.title}`);
    this.status = init.status;
    this.code = first.code;
    this.title = first.title;
    this.detail = first.detail;
    this.pointer = first.source?.pointer ?? null;
    this.parameter = first.source?.parameter ?? null;
    this.header = first.source?.header ?? null;
    this.requestId = init.headers.get(REQUEST_ID_HEADER);
    this.etag = init.headers.get('ETag');
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.errors = errors;
    this.method = init.method;
    this.url = init.url;
    this.headers = init.headers;
  }
}

/** The API could not be reached (or the connection broke) on every attempt. */
export class BrandNetworkError extends Error {
  override readonly name = 'BrandNetworkError';

  constructor(
    readonly method: string,
    readonly url: string,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(`${method} ${url} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${String(cause)}`, {
      cause,
    });
  }
}
