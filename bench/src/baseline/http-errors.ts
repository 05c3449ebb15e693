import { ErrorRequestHandler } from 'express';

/**
 * The project's error envelope (`{"errors": [...]}` of JSON:API-style objects), written by hand:
 * the statuses, codes, titles and wording of apps/api/src/http/api-errors.ts, api-error.ts and
 * domain-error-status.ts for the failures the baseline's three routes can meet.
 */

export interface ErrorObject {
  status: number;
  code: string;
  title: string;
  detail: string;
  source?: { pointer?: string; parameter?: string; header?: string };
  meta?: Record<string, unknown>;
}

export interface Violation {
  pointer: string;
  detail: string;
}

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Validation error',
  429: 'Too many requests',
  500: 'Internal server error',
  501: 'Not implemented',
  503: 'Service unavailable',
};

/** A failure with its status, error objects and the headers the status calls for. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorObject[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(errors[0]?.detail ?? `HTTP ${status}`);
  }
}

function single(
  status: number,
  code: string,
  detail: string,
  options: { headers?: Record<string, string>; source?: ErrorObject['source']; meta?: Record<string, unknown> } = {},
): HttpError {
  const error: ErrorObject = { status, code, title: TITLES[status] ?? 'Error', detail };
  if (options.source) error.source = options.source;
  if (options.meta) error.meta = options.meta;
  return new HttpError(status, [error], options.headers);
}

/** An RFC 6750 §3 challenge, with the error parameters only when a token was presented. */
function bearerChallenge(params: { error?: string; description?: string; scope?: string } = {}): string {
  const parts = ['realm="brand"'];
  if (params.error) parts.push(`error="${params.error}"`);
  if (params.description) parts.push(`error_description="${params.description.replace(/["\\]/g, "'")}"`);
  if (params.scope) parts.push(`scope="${params.scope}"`);
  return `Bearer ${parts.join(', ')}`;
}

/** Seconds a client is asked to wait when the database is busy (the project's STORAGE_RETRY_AFTER_SECONDS). */
const STORAGE_RETRY_AFTER_SECONDS = 5;

export const httpErrors = {
  missingToken: () =>
    single(
      401,
      'unauthenticated',
      'An access token is required: send Authorization: Bearer <token> or the access_token query parameter',
      { headers: { 'WWW-Authenticate': bearerChallenge() } },
    ),

  invalidToken: (detail: string) =>
    single(401, 'unauthenticated', detail, {
      headers: { 'WWW-Authenticate': bearerChallenge({ error: 'invalid_token', description: detail }) },
    }),

  ambiguousToken: (detail: string) =>
    single(400, 'invalid_request', detail, {
      headers: { 'WWW-Authenticate': bearerChallenge({ error: 'invalid_request', description: detail }) },
    }),

  insufficientScope: (missing: readonly string[]) =>
    single(
      403,
      'insufficient_scope',
      `This access token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
      {
        headers: { 'WWW-Authenticate': bearerChallenge({ error: 'insufficient_scope', scope: missing.join(' ') }) },
        meta: { missing_scopes: [...missing] },
      },
    ),

  tooManyRequests: (limit: number, windowMs: number, retryAfterSeconds: number) =>
    single(
      429,
      'too_many_requests',
      `This access token may make ${limit} requests per ${Math.ceil(windowMs / 1000)} seconds; retry after the time in Retry-After`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),

  routeNotFound: (method: string, path: string) =>
    single(404, 'route_not_found', `No route ${method} ${path}; see /openapi.json for the routes`),

  notFound: (resource: string, id: string) =>
    single(404, 'not_found', `${resource} ${id} was not found`, { meta: { resource, id } }),

  unsupportedMediaType: (given: string | undefined) =>
    single(
      415,
      'unsupported_media_type',
      `Request bodies must be JSON sent with Content-Type: application/json${given ? `; got ${given}` : ''}`,
      { source: { header: 'Content-Type' } },
    ),

  /** `validation_failed` (a body) or `invalid_list_query` (list parameters), one error object per violation. */
  violations: (code: 'validation_failed' | 'invalid_list_query', violations: readonly Violation[]) =>
    new HttpError(
      422,
      violations.map((violation) => ({
        status: 422,
        code,
        title: code === 'validation_failed' ? 'Validation error' : 'Invalid list query',
        detail: violation.detail,
        source:
          code === 'invalid_list_query'
            ? { parameter: violation.pointer.replace(/^\//, ''), pointer: violation.pointer }
            : { pointer: violation.pointer },
      })),
    ),

  /** Something the project supports that this baseline leaves out on purpose. */
  notImplemented: (what: string) =>
    single(501, 'not_implemented', `The raw-SQL baseline does not implement ${what}; the project does`),

  internal: () =>
    single(
      500,
      'internal_error',
      'Something went wrong on our side; retry later. Quote the X-Request-Id when you contact support.',
    ),

  storageUnavailable: () =>
    single(503, 'storage_unavailable', 'The database does not answer', {
      headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
    }),
};

/**
 * The failures body-parser raises (they name themselves with a `type`), and any other error of
 * the http-errors kind that says it is the client's (a 4xx status it `expose`s).
 */
function fromClientError(error: unknown, bodyLimit: string): HttpError | null {
  if (!(error instanceof Error)) return null;
  const { type, status, expose } = error as Error & { type?: unknown; status?: unknown; expose?: unknown };
  if (typeof status !== 'number') return null;
  switch (type) {
    case 'entity.parse.failed':
      return single(400, 'invalid_json', `The request body is not valid JSON: ${error.message}`);
    case 'entity.too.large':
      return single(413, 'payload_too_large', `The request body is larger than the limit of ${bodyLimit}`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return single(415, 'unsupported_media_type', error.message, { source: { header: 'Content-Type' } });
    case 'request.aborted':
    case 'request.size.invalid':
      return single(400, 'bad_request', error.message);
    default:
      return status >= 400 && status < 500 && expose === true ? single(status, 'bad_request', error.message) : null;
  }
}

/** SQLite gave up waiting for its write lock (or the file is full, read-only, gone). */
function isStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN)/.test(code);
}

/** The one place failures become responses; anything unexpected is a bare 500 whose cause goes to the log line. */
export function errorHandler(bodyLimit: string): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    let answer = error instanceof HttpError ? error : fromClientError(error, bodyLimit);
    if (!answer) {
      answer = isStorageFailure(error) ? httpErrors.storageUnavailable() : httpErrors.internal();
      // The request's log line carries the cause, as the project's does.
      res.locals['error'] = error;
    }
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    res.status(answer.status).json({ errors: answer.errors });
  };
}
