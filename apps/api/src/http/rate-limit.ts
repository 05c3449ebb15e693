import { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { Logger } from 'pino';
import { loggableError } from './error-handler';
import { RateLimitCounters } from '@brand/persistence-kysely';
import { apiErrors } from './api-errors';
import { principalOf } from './request-context';
import { DatabaseRateLimitStore } from './rate-limit-store';

/**
 * Limits requests per access token (not per IP: integrations often share egress addresses) with
 * the standard `RateLimit`/`RateLimit-Policy` headers (IETF draft 7) on every authenticated
 * response and `Retry-After` on a 429. Requests without a principal are not counted here.
 *
 * A 304 to a conditional GET is given back once answered (DESIGN §14): a client that polls with
 * `If-None-Match` pays only for the answers that tell it something. The library counts every
 * request on arrival (it cannot know the answer yet) and returns the hit of those it is told to
 * skip; the `RateLimit` header of the 304 itself still shows the count with it.
 *
 * When the counters cannot be written (the database is full, read-only or gone) requests pass
 * uncounted and the failure is logged: a full disk must not also stop the reads that still work,
 * and a request that needs the database fails on its own with a 503.
 */
export function limitRequestsPerToken(deps: {
  counters: RateLimitCounters;
  windowMs: number;
  max: number;
  logger: Logger;
}): RequestHandler {
  return rateLimit({
    windowMs: deps.windowMs,
    limit: deps.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: new DatabaseRateLimitStore(deps.counters),
    keyGenerator: (_req, res) => String(principalOf(res)?.tokenId),
    skip: (_req, res) => principalOf(res) === null,
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode === 304,
    handler: (_req, _res, next) => next(apiErrors.tooManyRequests(deps.max, deps.windowMs)),
    passOnStoreError: true,
    logger: {
      error: (error, message) => deps.logger.error({ err: loggableError(error) }, message),
      warn: (error, message) => deps.logger.warn({ err: loggableError(error) }, message),
    },
  });
}
