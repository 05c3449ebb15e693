import 'reflect-metadata';
import express from 'express';
import qs from 'qs';
import { Logger } from 'pino';
import {
  Clock,
  PasswordHasher,
  SecretHasher,
  SharingUnitOfWork,
  TokenVerifier,
  createStoredTokenVerifier,
} from '@brand/core';
import { Storage } from '@brand/persistence-kysely';
import { AppConfig } from './config';
import { authenticate } from './http/authenticate';
import { createErrorHandler } from './http/error-handler';
import { maintenanceGate } from './http/maintenance';
import { limitRequestsPerToken } from './http/rate-limit';
import { recordRequest } from './http/record-request';
import { requestTransactions } from './http/shared-transactions';
import { inSequence } from './http/in-sequence';
import { onlyUnder } from './http/only-under';
import { requestLogging } from './http/request-logging';
import { JsonSchema } from './http/route';
import { RouteRegistry, mountRoutes } from './http/route-registry';
import { installValidationFastPath } from './http/validation-fast-path';
import { CursorCodec } from './listing/cursor-codec';
import { buildOpenApiDocument } from './openapi/build-openapi-document';
import { RequestLogBuffer } from './request-log/request-log-buffer';
import { docsRouter } from './routers/docs.router';
import { healthRouter } from './routers/health.router';
import { legacyRouter } from './routers/legacy.router';
import { portalsRouter } from './routers/portals.router';
import { syncRouter } from './routers/sync.router';
import { catalogSyncRouter } from './routers/catalog-sync.router';
import { thirdPartyLogisticsRouter } from './routers/third-party-logistics.router';
import { customersV10Router } from './routers/customers.v10.router';
import { suppliersV10Router } from './routers/suppliers.v10.router';
import { mediaRouter } from './routers/media.router';
import { productImagesRouter } from './routers/product-images.router';
import { ImageServices, imageServicesFrom } from './infrastructure/image-services';
import { catalogV10Router } from './routers/catalog.v10.router';
import { exportsV10Router } from './routers/exports.v10.router';
import { ordersV10Router } from './routers/orders.v10.router';
import { financeV10Router } from './routers/finance.v10.router';
import { returnsReferenceV10Router } from './routers/returns-reference.v10.router';
import { returnsV10Router } from './routers/returns.v10.router';
import { thirdPartyReturnsRouter } from './routers/third-party-returns.router';
import { productionV10Router } from './routers/production.v10.router';
import { thirdPartyProductionRouter } from './routers/third-party-production.router';
import { eventsV10Router } from './routers/events.v10.router';
import { webhooksV10Router } from './routers/webhooks.v10.router';
import { bulkOperationsV10Router } from './routers/bulk-operations.v10.router';
import { oauthRouter } from './oauth/oauth.router';
import { authorizeRouter } from './oauth/authorize.router';
import { consoleRouter } from './console/console.router';
import { nodePasswordHasher } from './infrastructure/node-password-hasher';
import { ApiMetrics } from './metrics/api-metrics';
import { countRequestsInto } from './metrics/request-metrics';
import { Tracing } from './tracing/tracing';

export interface AppDeps {
  storage: Storage;
  clock: Clock;
  hasher: SecretHasher;
  logger: Logger;
  config: AppConfig;
  /** Replaces the stored-token verification (for services embedding the API with their own identity). */
  tokenVerifier?: TokenVerifier;
  /** Checks passwords at the OAuth login page; scrypt (`nodePasswordHasher`) by default. */
  passwordHasher?: PasswordHasher;
  /** Image download and blob storage; by default the guarded HTTP fetcher and the local folder store from `config.images`. */
  images?: ImageServices;
  /** Where requests are counted (with `METRICS_PORT` set); none: nothing is counted. */
  metrics?: ApiMetrics;
  /** Spans of every request (with `OTEL_EXPORTER_OTLP_ENDPOINT` set); none: nothing is traced. */
  tracing?: Pick<Tracing, 'traceRequests'>;
}

/** The version of the current interface, as the OpenAPI document states it. */
export const API_VERSION = '10';

// PHP bracket notation (filter_groups[0][filters][1][value][]=a) nests five levels deep and may
// hold long filter lists; beyond these bounds the parameters are kept as literal keys.
const QUERY_PARSER_OPTIONS: qs.IParseOptions = { depth: 6, arrayLimit: 100, parameterLimit: 1000 };

/**
 * Express 5 parses the query string anew on every read of `req.query`, and a request here reads
 * it three times (the token may come as `access_token`, the query guard, the route). The first
 * read keeps its result on the request, so later reads see the same object.
 */
function parseQueryOncePerRequest(app: express.Application): void {
  if (typeof Object.getOwnPropertyDescriptor(express.request, 'query')?.get !== 'function')
    throw new Error('Express no longer defines req.query as a getter; revisit parseQueryOncePerRequest');
  // Each app has its own request prototype (`app.request`, inheriting express.request), which the
  // typings do not declare.
  const requestPrototype = (app as unknown as { request: object }).request;
  Object.defineProperty(requestPrototype, 'query', {
    configurable: true,
    enumerable: true,
    get(this: express.Request): unknown {
      const query: unknown = Reflect.get(express.request, 'query', this);
      Object.defineProperty(this, 'query', { value: query, writable: true, configurable: true, enumerable: true });
      return query;
    },
  });
}

/** The paths the OAuth endpoints answer under (token, revocation, metadata). */
const OAUTH_PATHS = ['/oauth', '/.well-known/oauth-authorization-server'];

/**
 * The HTTP API as an Express application, without `listen()`, so that tests drive the real app
 * through supertest and `server.ts` decides about ports and shutdown. `app.locals.requestLog`
 * buffers the request log; call its `flush()` before shutting down (and in tests before reading it).
 */
export function createApp(deps: AppDeps): express.Application {
  const { storage, clock, hasher, logger, config } = deps;
  // Valid bodies are confirmed without class-validator's executor (validation-fast-path.ts).
  installValidationFastPath();
  const app = express();
  app.disable('x-powered-by');
  // The client's address (login throttling, the token endpoint's limit) and scheme (Secure
  // cookies) come from X-Forwarded-* only when the hop that sent them is a trusted proxy.
  app.set('trust proxy', config.trustProxy);
  // Express would hash every body for a weak ETag; list pages are large and integrators page by
  // cursor rather than revalidate, so the hashing is pure cost.
  app.set('etag', false);
  // Paths match exactly as declared: authentication is chosen by path prefix, and a differently
  // cased path must not reach a route without passing the authentication of its surface.
  app.set('case sensitive routing', true);
  app.set('query parser', (query: string) => qs.parse(query, QUERY_PARSER_OPTIONS));
  parseQueryOncePerRequest(app);

  // Every unit of work of the app joins the shared transaction of an idempotent write when it runs
  // within one (DESIGN §12), and is the storage's own everywhere else.
  const uow = new SharingUnitOfWork(storage.uow, requestTransactions);
  const requestLog = new RequestLogBuffer({ uow, logger, flushMs: config.requestLogFlushMs });
  app.locals['requestLog'] = requestLog;

  const verifier = deps.tokenVerifier ?? createStoredTokenVerifier({ uow, clock, hasher });
  const images = deps.images ?? imageServicesFrom(config.images);
  const routerDeps = { uow, clock, hasher, cursors: new CursorCodec(storage.secrets), images };
  let openApiDocument: JsonSchema | null = null;
  const document = (): JsonSchema =>
    (openApiDocument ??= buildOpenApiDocument(registry, {
      title: 'Brand commerce platform API',
      version: API_VERSION,
    }));
  app.locals['openApiDocument'] = document;
  const registry: RouteRegistry = new RouteRegistry([
    healthRouter({ ping: () => storage.ping(), pendingMigrations: () => storage.pendingMigrations() }),
    docsRouter({ document }),
    customersV10Router(routerDeps),
    suppliersV10Router(routerDeps),
    catalogV10Router({ ...routerDeps, mediaBaseUrl: config.images.mediaBaseUrl }),
    // Before the routers with /v10/<documents>/:id, so /v10/orders/export is not taken for an id.
    exportsV10Router(routerDeps),
    ordersV10Router(routerDeps),
    financeV10Router(routerDeps),
    returnsReferenceV10Router(routerDeps),
    returnsV10Router(routerDeps),
    productionV10Router(routerDeps),
    eventsV10Router(routerDeps),
    webhooksV10Router(routerDeps),
    bulkOperationsV10Router({ ...routerDeps, bulkMaxBytes: config.bulk.maxBytes }),
    portalsRouter(routerDeps),
    syncRouter(routerDeps),
    catalogSyncRouter(routerDeps),
    productImagesRouter({ ...routerDeps, mediaBaseUrl: config.images.mediaBaseUrl }),
    mediaRouter({ blobs: images.blobs }),
    thirdPartyLogisticsRouter(routerDeps),
    thirdPartyReturnsRouter(routerDeps),
    thirdPartyProductionRouter(routerDeps),
    legacyRouter(routerDeps),
  ]);

  const afterAuthentication = [
    recordRequest({ buffer: requestLog, clock }),
    limitRequestsPerToken({
      counters: storage.rateLimits,
      windowMs: config.rateLimit.windowMs,
      max: config.rateLimit.max,
      logger,
    }),
  ];

  // The steps before the interfaces' gates run as one handler (in-sequence.ts), in this order.
  app.use(
    inSequence([
      // First, so that everything after it, the log line included, runs within the request's span.
      ...(deps.tracing ? [deps.tracing.traceRequests] : []),
      requestLogging(
        logger,
        deps.metrics ? countRequestsInto(deps.metrics, { maintenanceMode: config.maintenanceMode }) : undefined,
      ),
      // Each surface its own pipeline: the OAuth endpoints take forms and answer RFC 6749 errors, so
      // they come before the interfaces' gates, JSON rules and error envelope (and answer maintenance themselves).
      // Each of these routers is entered only for its own paths (`onlyUnder`), so an API request does
      // not test its path against every OAuth and console route first.
      onlyUnder(
        OAUTH_PATHS,
        oauthRouter({
          uow,
          clock,
          hasher,
          counters: storage.rateLimits,
          logger,
          publicBaseUrl: config.publicBaseUrl,
          maintenanceMode: config.maintenanceMode,
          rateLimit: { windowMs: config.rateLimit.windowMs, maxPerAddress: config.oauthTokenRateLimitMax },
        }),
      ),
      // The browser half: login and consent pages, their own pipeline of forms and HTML error pages.
      onlyUnder(
        ['/oauth'],
        authorizeRouter({
          uow,
          clock,
          hasher,
          passwordHasher: deps.passwordHasher ?? nodePasswordHasher,
          maintenanceMode: config.maintenanceMode,
        }),
      ),
      // The console: server-rendered pages on the same session cookie and page pipeline.
      onlyUnder(
        ['/console'],
        consoleRouter({
          uow,
          clock,
          hasher,
          passwordHasher: deps.passwordHasher ?? nodePasswordHasher,
          maintenanceMode: config.maintenanceMode,
          cursors: routerDeps.cursors,
        }),
      ),
      maintenanceGate(config.maintenanceMode),
    ]),
  );
  mountRoutes(app, registry, {
    gates: {
      current: [authenticate('current', verifier), ...afterAuthentication],
      legacy: [authenticate('legacy', verifier), ...afterAuthentication],
    },
    bodyLimit: config.bodyLimit,
    idempotency: { uow: storage.uow, clock, hasher, bodyLimit: config.bodyLimit },
    uow: storage.uow,
  });
  app.use(
    createErrorHandler({
      bodyLimit: config.bodyLimit,
      isLegacyPath: (path) => registry.surfaceFor(path)?.auth === 'legacy',
    }),
  );
  return app;
}

/** The OpenAPI document an app made by `createApp` serves at /openapi.json (built once, on first use). */
export function openApiDocumentOf(app: express.Application): JsonSchema {
  return (app.locals['openApiDocument'] as () => JsonSchema)();
}

/** The request-log buffer of an app made by `createApp`. */
export function requestLogOf(app: express.Application): RequestLogBuffer {
  return app.locals['requestLog'] as RequestLogBuffer;
}
