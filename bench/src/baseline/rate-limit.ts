import { RequestHandler } from 'express';
import { principalOf } from './auth';
import { httpErrors } from './http-errors';

/**
 * A fixed window per access token, counted in memory, with the headers the project sends
 * (express-rate-limit's IETF draft 7: `RateLimit-Policy: 600;w=60` and
 * `RateLimit: limit=600, remaining=599, reset=60`), and `Retry-After` with a 429. A window
 * starts at the token's first request and is replaced by a new one once it has ended, as the
 * project's counter row is.
 */
export function limitRequestsPerToken(options: { max: number; windowMs: number }): RequestHandler {
  const { max, windowMs } = options;
  const policy = `${max};w=${Math.ceil(windowMs / 1000)}`;
  const windows = new Map<number, { hits: number; resetAtMs: number }>();
  return (_req, res, next) => {
    const principal = principalOf(res);
    if (!principal) {
      next();
      return;
    }
    const now = Date.now();
    let window = windows.get(principal.tokenId);
    if (!window || window.resetAtMs <= now) {
      window = { hits: 0, resetAtMs: now + windowMs };
      windows.set(principal.tokenId, window);
    }
    window.hits += 1;
    const resetSeconds = Math.max(0, Math.ceil((window.resetAtMs - now) / 1000));
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit', `limit=${max}, remaining=${Math.max(max - window.hits, 0)}, reset=${resetSeconds}`);
    if (window.hits > max) throw httpErrors.tooManyRequests(max, windowMs, resetSeconds);
    next();
  };
}
