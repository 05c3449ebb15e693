import { ApiError } from './api-error';

/**
 * `Retry-After` while the database cannot serve (restarting, full, read-only, busy): a Postgres
 * restart or failover takes seconds, and a client that comes back sooner only finds the same answer.
 */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/** Realm named in `WWW-Authenticate` challenges. */
export const AUTH_REALM = 'brand';

/** Builds an RFC 6750 §3 challenge; the error parameters are sent only when a token was presented. */
export function bearerChallenge(params: { error?: string; description?: string; scope?: string } = {}): string {
  const parts = [`realm="${AUTH_REALM}"`];
  if (params.error) parts.push(`error="${params.error}"`);
  // Quotes and backslashes are not allowed inside the quoted description (RFC 6750 §3).
  if (params.description) parts.push(`error_description="${params.description.replace(/["\\]/g, "'")}"`);
  if (params.scope) parts.push(`scope="${params.scope}"`);
  return `Bearer ${parts.join(', ')}`;
}

/** The errors the HTTP layer raises, one factory each so their codes and wording stay consistent. */
export const apiErrors = {
  invalidJson: (reason: string) => new ApiError(400, 'invalid_json', `The request body is not valid JSON: ${reason}`),

  /** `where`: the first level too many, as a JSON pointer and as the dotted path of messages. */
  bodyTooDeep: (maxDepth: number, where: { pointer: string; path: string }) =>
    new ApiError(400, 'body_too_deep', `The request body nests deeper than ${maxDepth} levels (at ${where.path})`, {
      source: { pointer: where.pointer },
    }),

  invalidPath: () => new ApiError(400, 'invalid_path', 'The path is not valid percent-encoded UTF-8'),

  missingAppIdentifier: () =>
    new ApiError(
      400,
      'missing_app_identifier',
      'The X-ServiceAppIdentifier header is required on /api: name the app, its version and a contact',
      {
        source: { header: 'X-ServiceAppIdentifier' },
      },
    ),

  /** More than one way of sending the token was used (RFC 6750 §2: exactly one is allowed). */
  ambiguousToken: (detail: string) =>
    new ApiError(400, 'invalid_request', detail, {
      headers: { 'WWW-Authenticate': bearerChallenge({ error: 'invalid_request', description: detail }) },
    }),

  missingToken: () =>
    new ApiError(
      401,
      'unauthenticated',
      'An access token is required: send Authorization: Bearer <token> or the access_token query parameter',
      {
        headers: { 'WWW-Authenticate': bearerChallenge() },
      },
    ),

  invalidToken: (detail: string) =>
    new ApiError(401, 'unauthenticated', detail, {
      headers: { 'WWW-Authenticate': bearerChallenge({ error: 'invalid_token', description: detail }) },
    }),

  insufficientScope: (missing: readonly string[]) =>
    new ApiError(
      403,
      'insufficient_scope',
      `This access token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
      {
        headers: { 'WWW-Authenticate': bearerChallenge({ error: 'insufficient_scope', scope: missing.join(' ') }) },
        meta: { missing_scopes: [...missing] },
      },
    ),

  routeNotFound: (method: string, path: string) =>
    new ApiError(404, 'route_not_found', `No route ${method} ${path}; see /openapi.json for the routes`),

  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    new ApiError(405, 'method_not_allowed', `${path} does not support ${method}; it supports ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
      meta: { allowed_methods: [...allowed] },
    }),

  payloadTooLarge: (limit: string) =>
    new ApiError(413, 'payload_too_large', `The request body is larger than the limit of ${limit}`),

  unsupportedMediaType: (given: string | undefined) =>
    new ApiError(
      415,
      'unsupported_media_type',
      `Request bodies must be JSON sent with Content-Type: application/json${given ? `; got ${given}` : ''}`,
      {
        source: { header: 'Content-Type' },
      },
    ),

  tooManyRequests: (limit: number, windowMs: number) =>
    new ApiError(
      429,
      'too_many_requests',
      `This access token may make ${limit} requests per ${Math.ceil(windowMs / 1000)} seconds; retry after the time in Retry-After`,
    ),

  internal: () =>
    new ApiError(
      500,
      'internal_error',
      'Something went wrong on our side; retry later. Quote the X-Request-Id when you contact support.',
    ),

  maintenance: (retryAfterSeconds: number) =>
    new ApiError(503, 'maintenance', 'The service is down for maintenance; retry later', {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),

  storageUnavailable: () =>
    new ApiError(503, 'storage_unavailable', 'The database does not answer', {
      headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
    }),
};
