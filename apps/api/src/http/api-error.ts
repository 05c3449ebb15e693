/**
 * The wire form of a failure: JSON:API-style error objects inside `{"errors": [...]}`. `code` is
 * a stable string integrators can branch on; `title` names the kind of problem and does not vary
 * between occurrences; `detail` explains this occurrence.
 */
export interface ErrorObject {
  status: number;
  /** A string on every interface, except the integer codes of the older interface's table (40001, 1000001 …). */
  code: string | number;
  title: string;
  detail: string;
  /** Where the problem is: a JSON pointer into the body, a query parameter, or a header. */
  source?: { pointer?: string; parameter?: string; header?: string };
  meta?: Record<string, unknown>;
}

export interface ErrorEnvelope {
  errors: ErrorObject[];
}

/** HTTP reason phrases, used as titles of errors the API itself raises. */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Validation error',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/**
 * A failure found by the HTTP layer itself (authentication, content negotiation, routing, limits),
 * as opposed to a `DomainError` from a use case. It carries its status and any headers the status
 * calls for (`WWW-Authenticate`, `Allow`, `Retry-After`).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly source: ErrorObject['source'];
  readonly meta: ErrorObject['meta'];

  constructor(
    status: number,
    code: string,
    detail: string,
    options: { headers?: Record<string, string>; source?: ErrorObject['source']; meta?: Record<string, unknown> } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.source = options.source;
    this.meta = options.meta;
  }

  /** The error objects of the envelope; one, unless a subclass reports several problems at once. */
  toErrorObjects(): ErrorObject[] {
    return [this.toErrorObject()];
  }

  protected toErrorObject(): ErrorObject {
    return {
      status: this.status,
      code: this.code,
      title: STATUS_TITLES[this.status] ?? 'Error',
      detail: this.message,
      ...(this.source ? { source: this.source } : {}),
      ...(this.meta ? { meta: this.meta } : {}),
    };
  }
}

/** 422 for query parameters of the wrong shape: one error object per parameter, each naming it. */
export class InvalidQueryParameters extends ApiError {
  constructor(readonly violations: ReadonlyArray<{ parameter: string; detail: string }>) {
    super(422, 'invalid_query_parameters', violations[0]?.detail ?? 'The query parameters are invalid');
  }

  override toErrorObjects(): ErrorObject[] {
    return this.violations.map((violation) => ({
      status: this.status,
      code: this.code,
      title: STATUS_TITLES[this.status] ?? 'Error',
      detail: violation.detail,
      source: { parameter: violation.parameter },
    }));
  }
}
