import express, { RequestHandler } from 'express';
import { Logger } from 'pino';
import { Contract, authenticate, requireScopes, tokenVerifier } from './auth';
import { cursorCodec } from './cursor';
import { listCustomers } from './customers';
import { Sqlite } from './database';
import { errorHandler, httpErrors } from './http-errors';
import { createOrder } from './orders';
import { countInLeases, countInMemory, limitRequestsPerToken, sqliteCounters } from './rate-limit';
import { RequestLogBuffer, recordRequest } from './request-log';
import { requestLogging } from './request-logging';

export const JSON_TYPES = ['application/json', 'application/*+json'];

/** 415 for a POST whose body is not declared as JSON; a POST without a body may omit Content-Type. */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
  if (req.method === 'POST' && hasBody && !req.is(JSON_TYPES))
    throw httpErrors.unsupportedMediaType(req.get('Content-Type'));
  next();
};

/**
 * The baseline's Express app: the project's pipeline in the project's order (request id and log
 * line; under /v10 authentication, the request log, the rate limit and the JSON content-type
 * rule; per route the scope check and the body parser), around three hand-written routes. Under
 * the same contract tokens are verified against the credentials revision and rate limits are
 * leased from the shared counters; under the legacy one, trusted for 2 s and counted in memory.
 */
export function createBaselineApp(deps: {
  db: Sqlite;
  contract: Contract;
  logger: Logger;
  requestLog: RequestLogBuffer;
  rateLimit: { max: number; windowMs: number };
  bodyLimit: string;
}): express.Application {
  const { db, contract, logger, requestLog, rateLimit, bodyLimit } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  // qs, as the project parses query strings (bracket notation), rather than Express's plain parser.
  app.set('query parser', 'extended');

  app.use(requestLogging(logger));
  app.use(
    '/v10',
    authenticate(tokenVerifier(db, contract)),
    recordRequest(requestLog),
    limitRequestsPerToken({
      ...rateLimit,
      count:
        contract === 'same'
          ? countInLeases(rateLimit.max, rateLimit.windowMs, sqliteCounters(db))
          : countInMemory(rateLimit.windowMs),
    }),
    requireJsonContentType,
  );
  app.get('/v10/customers', requireScopes('customers:read'), listCustomers(db, cursorCodec(db)));
  app.post(
    '/v10/order-channels/:publicId/orders',
    requireScopes('orders:write'),
    express.json({ limit: bodyLimit, strict: true, type: JSON_TYPES }),
    createOrder(db),
  );
  app.use((req) => {
    throw httpErrors.routeNotFound(req.method, req.path);
  });
  app.use(errorHandler(bodyLimit));
  return app;
}
