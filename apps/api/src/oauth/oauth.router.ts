import { types } from 'node:util';
import express, { ErrorRequestHandler, Request as ExpressRequest, RequestHandler, Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import OAuth2Server, {
  InvalidClientError,
  InvalidRequestError,
  OAuthError,
  Request as OAuthRequest,
  Response as OAuthResponse,
  ServerError,
  UnsupportedGrantTypeError,
} from '@node-oauth/oauth2-server';
import {
  ALL_SCOPES,
  ApiApp,
  DEFAULT_OAUTH_ACCESS_TOKEN_LIFETIME_SECONDS,
  DomainError,
  authenticateOAuthClient,
  isDomainError,
  revokeOAuthToken,
} from '@brand/core';
import { Logger } from 'pino';
import { RateLimitCounters } from '@brand/persistence-kysely';
import { DOMAIN_ERROR_HTTP } from '../http/domain-error-status';
import { loggableError } from '../http/error-handler';
import { MAINTENANCE_RETRY_AFTER_SECONDS } from '../http/maintenance';
import { DatabaseRateLimitStore } from '../http/rate-limit-store';
import { logFailureWith } from '../http/request-logging';
import { sendJson } from '../http/send-json';
import { GRANT_TYPES } from './grant-types';
import { ACCESS_TOKEN_LIFETIME, OAuthModelDeps, SUPPORTED_GRANT_TYPES, createOAuthModel } from './oauth-model';

/** A token or revocation request is a handful of short parameters; anything larger is not one. */
const FORM_BODY_LIMIT = '16kb';

export interface OAuthRouterDeps extends OAuthModelDeps {
  counters: RateLimitCounters;
  logger: Logger;
  /** The public origin (config `PUBLIC_BASE_URL`); null: the request's scheme and host. */
  publicBaseUrl: string | null;
  maintenanceMode: boolean;
  rateLimit: { windowMs: number; maxPerAddress: number };
}

/** An RFC 6749 §5.2 error answer: `{error, error_description}`, never the JSON:API envelope. */
function sendOAuthError(
  res: express.Response,
  status: number,
  error: string,
  description?: string,
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  sendJson(res, status, description ? { error, error_description: description } : { error });
}

/** The client's credentials: HTTP Basic (RFC 6749 §2.3.1, form-encoded name and password) or `client_id` and `client_secret` in the body. */
function clientCredentialsOf(req: ExpressRequest): { clientId: string; clientSecret: string; basic: boolean } | null {
  const header = req.get('authorization');
  const basic = header ? /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim()) : null;
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    try {
      return {
        clientId: decodeURIComponent(decoded.slice(0, colon)),
        clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
        basic: true,
      };
    } catch {
      return null;
    }
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const { client_id: clientId, client_secret: clientSecret } = body;
  return typeof clientId === 'string' && typeof clientSecret === 'string' && clientId !== '' && clientSecret !== ''
    ? { clientId, clientSecret, basic: false }
    : null;
}

const isForm = (req: ExpressRequest): boolean =>
  req.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';

/** The origin the metadata names: the configured public base URL, else the request's own. */
function issuerOf(req: ExpressRequest, publicBaseUrl: string | null): string {
  return publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/**
 * The OAuth 2.0 endpoints (DESIGN §11) with their own pipeline: a size-limited form body parser,
 * the token endpoint limited per client address, and answers and errors per RFC 6749, 7009 and
 * 8414. They are mounted before the JSON:API interfaces, whose JSON content rule, access-token
 * gates, request log and error envelope do not apply here.
 */
export function oauthRouter(deps: OAuthRouterDeps): Router {
  const router = Router();
  const formBody = express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 20 });
  const server = (): OAuth2Server =>
    new OAuth2Server({
      model: createOAuthModel(deps),
      accessTokenLifetime: DEFAULT_OAUTH_ACCESS_TOKEN_LIFETIME_SECONDS,
      extendedGrantTypes: GRANT_TYPES,
    });

  const maintenance: RequestHandler = (_req, res, next) => {
    if (!deps.maintenanceMode) return next();
    sendOAuthError(res, 503, 'temporarily_unavailable', 'The service is in maintenance; retry later', {
      'Retry-After': String(MAINTENANCE_RETRY_AFTER_SECONDS),
    });
  };

  // Per address, not per client: the endpoint is where client secrets and codes are guessed, before
  // any token exists to count by. Counters are shared by every process, as the API's are.
  const limitTokenRequests = rateLimit({
    windowMs: deps.rateLimit.windowMs,
    limit: deps.rateLimit.maxPerAddress,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: new DatabaseRateLimitStore(deps.counters, 'oauth-token:'),
    handler: (_req, res) =>
      sendOAuthError(
        res,
        429,
        'temporarily_unavailable',
        `Too many token requests from this address: at most ${deps.rateLimit.maxPerAddress} per ${Math.round(deps.rateLimit.windowMs / 1000)} seconds`,
      ),
    passOnStoreError: true,
    logger: {
      error: (error, message) => deps.logger.error({ err: loggableError(error) }, message),
      warn: (error, message) => deps.logger.warn({ err: loggableError(error) }, message),
    },
  });

  router.get('/.well-known/oauth-authorization-server', maintenance, (req, res) => {
    const issuer = issuerOf(req, deps.publicBaseUrl);
    sendJson(res, 200, {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: [...SUPPORTED_GRANT_TYPES],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: [...ALL_SCOPES],
    });
  });

  router.post('/oauth/token', maintenance, limitTokenRequests, formBody, async (req, res, next) => {
    const oauthResponse = new OAuthResponse();
    try {
      const grantType = (req.body as Record<string, unknown> | undefined)?.['grant_type'];
      // The library knows the password and client_credentials grants too; they are not offered here.
      if (typeof grantType === 'string' && !(SUPPORTED_GRANT_TYPES as readonly string[]).includes(grantType))
        throw new UnsupportedGrantTypeError(
          `Unsupported grant type: use ${SUPPORTED_GRANT_TYPES.join(' or ')}, not ${JSON.stringify(grantType)}`,
        );
      const oauthRequest = new OAuthRequest({
        headers: req.headers as Record<string, string>,
        method: req.method,
        query: req.query as Record<string, string>,
        body: req.body ?? {},
      });
      const issued = await server().token(oauthRequest, oauthResponse);
      res.setHeader('Pragma', 'no-cache');
      res.setHeader('Cache-Control', 'no-store');
      sendJson(res, 200, { ...oauthResponse.body, expires_in: issued[ACCESS_TOKEN_LIFETIME] as number });
    } catch (error) {
      // The library sets WWW-Authenticate on its response for a failed Basic authentication.
      const challenge: unknown = oauthResponse.get('www-authenticate');
      if (typeof challenge === 'string') res.setHeader('WWW-Authenticate', challenge);
      next(error);
    }
  });

  router.post('/oauth/revoke', maintenance, formBody, async (req, res, next) => {
    try {
      if (!isForm(req))
        throw new InvalidRequestError('Invalid request: content must be application/x-www-form-urlencoded');
      const credentials = clientCredentialsOf(req);
      const usedBasic = /^Basic\s/i.test(req.get('authorization') ?? '');
      if (!credentials) {
        throw new InvalidClientError('Invalid client: send client_id and client_secret, by HTTP Basic or in the body', {
          code: 401,
        });
      }
      let app: ApiApp;
      try {
        app = await authenticateOAuthClient(deps, credentials);
      } catch (error) {
        if (isDomainError(error) && error.code === 'invalid_credentials') {
          if (usedBasic) res.setHeader('WWW-Authenticate', 'Basic realm="Service"');
          throw new InvalidClientError('Invalid client: client is invalid', { code: 401 });
        }
        throw error;
      }
      const token = (req.body as Record<string, unknown>)['token'];
      if (typeof token !== 'string' || token === '') throw new InvalidRequestError('Missing parameter: `token`');
      // token_type_hint is optional and only a hint (RFC 7009 §2.1): both kinds are found by their hash.
      await revokeOAuthToken(deps, { brandId: app.brandId, appId: app.id, token });
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).end();
    } catch (error) {
      next(error);
    }
  });

  router.use(['/oauth', '/.well-known/oauth-authorization-server'], oauthErrorHandler());
  return router;
}

/** The error of a database that is unreachable, full, read-only or busy, however the library wrapped it. */
function storageUnavailable(error: unknown): DomainError | null {
  const inner = error instanceof OAuthError ? (error as OAuthError & { inner?: unknown }).inner : error;
  return isDomainError(inner) && inner.code === 'storage_unavailable' ? inner : null;
}

/**
 * Failures of the OAuth endpoints as RFC 6749 §5.2 errors: the library's errors with their own
 * status, a malformed or oversized body as `invalid_request`, a database outage as 503
 * `temporarily_unavailable`, and anything else as 500 `server_error`, its cause in the log only.
 */
function oauthErrorHandler(): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    const outage = storageUnavailable(error);
    if (outage) {
      const logged = loggableError(outage);
      if (types.isNativeError(logged)) logFailureWith(res, logged);
      return sendOAuthError(res, 503, 'temporarily_unavailable', 'Storage is unavailable; retry later', {
        ...DOMAIN_ERROR_HTTP.storage_unavailable.headers,
      });
    }
    if (error instanceof OAuthError && !(error instanceof ServerError))
      return sendOAuthError(res, error.code, error.name, error.message);
    const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
    if (typeof status === 'number' && status >= 400 && status < 500 && typeof type === 'string') {
      // body-parser's refusals: a body too large, a bad encoding or charset, an aborted request.
      const description =
        type === 'entity.too.large'
          ? `The body must be at most ${FORM_BODY_LIMIT}`
          : 'The request body could not be read';
      return sendOAuthError(res, status === 413 ? 413 : 400, 'invalid_request', description);
    }
    const cause = error instanceof ServerError ? ((error as ServerError & { inner?: unknown }).inner ?? error) : error;
    if (types.isNativeError(cause)) logFailureWith(res, cause);
    sendOAuthError(res, 500, 'server_error');
  };
}
