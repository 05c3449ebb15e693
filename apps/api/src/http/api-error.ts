import { Static, Type, component, integer, optional, string } from './wire-schema';

/**
 * The wire form of a failure: JSON:API-style error objects inside `{"errors": [...]}`. `code` is
 * a stable string integrators can branch on; `title` names the kind of problem and does not vary
 * between occurrences; `detail` explains this occurrence.
 */
export const ErrorObjectSchema = component(
  'ErrorObject',
  Type.Object({
    status: integer('The HTTP status, repeated'),
    code: Type.Union([Type.String(), Type.Integer()], {
      description:
        'Stable machine-readable code, e.g. validation_failed, insufficient_scope; on the older /api interface the integer of its code table (40001, 1000001 …) where one applies',
    }),
    title: string('The kind of problem; the same for every occurrence'),
    detail: string('What is wrong in this request'),
    /** Where the problem is: a JSON pointer into the body, a query parameter, or a header. */
    source: optional(
      Type.Object({
        pointer: optional(string('JSON pointer into the body, e.g. /customers/2/addresses/0/zip')),
        parameter: optional(string('The query parameter, e.g. filter_groups[0][filters][0][key]')),
        header: optional(string('The request header')),
      }),
    ),
    meta: optional(
      Type.Unsafe<Record<string, unknown>>({
        type: 'object',
        additionalProperties: true,
        description: 'Details such as missing_scopes or allowed_methods',
      }),
    ),
  }),
);
export type ErrorObject = Static<typeof ErrorObjectSchema>;

export const ErrorEnvelopeSchema = component(
  'ErrorEnvelope',
  Type.Object({ errors: Type.Array(ErrorObjectSchema, { minItems: 1 }) }),
);
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;

/** HTTP reason phrases, used as titles of errors the API itself raises. */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  412: 'Precondition failed',
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
