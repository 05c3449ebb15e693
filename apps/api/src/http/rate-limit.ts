import { RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { Logger } from 'pino';
import { loggableError } from './error-handler';
import { RateLimitCounters } from '@brand/persistence-kysely';
import { apiErrors } from './api-errors';
import { inSequence } from './in-sequence';
import { principalOf } from './request-context';
import { DatabaseRateLimitStore } from './rate-limit-store';

/**
 * Limits requests per access token (not per IP: integrations often share egress addresses) with
 * the standard `RateLimit`/`RateLimit-Policy` headers (IETF draft 7) on every authenticated
 * response and `Retry-After` on a 429. Requests without a principal are not counted here.
 *
 * A 304 to a conditional GET is given back when it is answered (DESIGN §14, `giveBackHit`): a
 * client that polls with `If-None-Match` pays only for the answers that tell it something. The
 * library counts every request on arrival (it cannot know the answer yet); the `RateLimit` header
 * of the 304 itself still shows the count with it. The library could give the hit back itself
 * (`skipSuccessfulRequests`), but it would wait for every request's end with a promise and a
 * listener of its own to learn the rare 304; the one place that answers 304 says so instead.
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
  const store = new DatabaseRateLimitStore(deps.counters);
  const limit = rateLimit({
    windowMs: deps.windowMs,
    limit: deps.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store,
    keyGenerator: (_req, res) => keyOf(res),
    skip: (_req, res) => principalOf(res) === null,
    handler: (_req, _res, next) => next(apiErrors.tooManyRequests(deps.max, deps.windowMs)),
    passOnStoreError: true,
    logger: {
      error: (error, message) => deps.logger.error({ err: loggableError(error) }, message),
      warn: (error, message) => deps.logger.warn({ err: loggableError(error) }, message),
    },
  });
  return inSequence([
    limit,
    (req, res, next) => {
      // Set by the library once the store has counted the request (not when it was skipped or the store failed).
      if ((req as { rateLimit?: unknown }).rateLimit !== undefined) res.locals[COUNTED_BY_KEY] = store;
      next();
    },
  ]);
}

// The store that counted the request, kept on res.locals (which lives exactly as long as the request).
const COUNTED_BY_KEY = 'rateLimitCountedBy';

const keyOf = (res: Response): string => String(principalOf(res)?.tokenId);

/** Gives back the hit of a request whose answer does not count (a 304 to a conditional GET); once per request. */
export function giveBackHit(res: Response): void {
  const store = res.locals[COUNTED_BY_KEY] as DatabaseRateLimitStore | undefined;
  if (store === undefined) return;
  res.locals[COUNTED_BY_KEY] = undefined;
  void store.decrement(keyOf(res));
}
