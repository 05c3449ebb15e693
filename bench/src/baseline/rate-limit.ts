import { RequestHandler, Response } from 'express';
import { Principal, principalOf } from './auth';
import { Sqlite } from './database';
import { httpErrors } from './http-errors';

/** The count of a request in its token's window, as express-rate-limit's store answers it. */
export interface Counted {
  /** Hits counted in the window so far, this one included (beyond `max`: refused). */
  totalHits: number;
  resetAtMs: number;
}

/** Counts one request of a principal (or answers the count a promise later, on an asynchronous driver). */
export type CountHit = (principal: Principal) => Counted | Promise<Counted>;

/**
 * The headers the project sends (express-rate-limit's IETF draft 7: `RateLimit-Policy: 600;w=60`
 * and `RateLimit: limit=600, remaining=599, reset=60`), and a 429 with `Retry-After` beyond the
 * limit. Requests without a principal are not counted.
 */
export function limitRequestsPerToken(options: { max: number; windowMs: number; count: CountHit }): RequestHandler {
  const { max, windowMs, count } = options;
  const policy = `${max};w=${Math.ceil(windowMs / 1000)}`;
  const answer = (res: Response, counted: Counted): void => {
    const resetSeconds = Math.max(0, Math.ceil((counted.resetAtMs - Date.now()) / 1000));
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader(
      'RateLimit',
      `limit=${max}, remaining=${Math.max(max - counted.totalHits, 0)}, reset=${resetSeconds}`,
    );
    if (counted.totalHits > max) throw httpErrors.tooManyRequests(max, windowMs, resetSeconds);
  };
  return (_req, res, next) => {
    const principal = principalOf(res);
    if (!principal) {
      next();
      return;
    }
    const counted = count(principal);
    if (!(counted instanceof Promise)) {
      answer(res, counted);
      next();
      return;
    }
    counted.then((c) => answer(res, c)).then(() => next(), next);
  };
}

/**
 * The old baseline's count: a fixed window per access token in this process's memory. A window
 * starts at the token's first request and is replaced by a new one once it has ended, as the
 * project's counter row is. Not shared between processes, so not the project's contract.
 */
export function countInMemory(windowMs: number): CountHit {
  const windows = new Map<number, { hits: number; resetAtMs: number }>();
  return (principal) => {
    const now = Date.now();
    let window = windows.get(principal.tokenId);
    if (!window || window.resetAtMs <= now) {
      window = { hits: 0, resetAtMs: now + windowMs };
      windows.set(principal.tokenId, window);
    }
    window.hits += 1;
    return { totalHits: window.hits, resetAtMs: window.resetAtMs };
  };
}

/**
 * The project's atomic counter statement (persistence-kysely's rate-limit-counters.ts `hitCounter`)
 * with `?` placeholders: adds `count` hits to `key` in the window containing now (a new window once
 * the last has closed) and answers the window's hits and end. Parameters: key, count, now + window,
 * now, count, count, now, now + window.
 */
export const HIT_COUNTER_SQL =
  'insert into rate_limit_counters (key, hits, reset_at_ms) values (?, ?, ?) on conflict (key) do update set ' +
  'hits = case when rate_limit_counters.reset_at_ms <= ? then ? else rate_limit_counters.hits + ? end, ' +
  'reset_at_ms = case when rate_limit_counters.reset_at_ms <= ? then ? else rate_limit_counters.reset_at_ms end ' +
  'returning hits, reset_at_ms';

/** The parameters of `HIT_COUNTER_SQL`. */
export const hitCounterParameters = (key: string, windowMs: number, nowMs: number, count: number): unknown[] => [
  key,
  count,
  nowMs + windowMs,
  nowMs,
  count,
  count,
  nowMs,
  nowMs + windowMs,
];

/** A lease takes at most this share of what is left of a window (the project's LEASE_SHARE_OF_REMAINING)… */
const LEASE_SHARE_OF_REMAINING = 32;
/** …and never more than this many hits at once (its MAX_LEASE). */
const MAX_LEASE = 100;

/** Hits this process took from the shared counter of one key and has not handed out yet. */
interface Lease {
  resetAtMs: number;
  /** The shared counter's value once this lease was taken. */
  countedAfterLease: number;
  unused: number;
}

/** Takes `count` hits on `key` from the shared counter; answers the window's hits (these included) and its end. */
type TakeHits<R> = (key: string, windowMs: number, nowMs: number, count: number) => R;

/**
 * The project's lease rule (apps/api/src/http/rate-limit-store.ts): a process takes hits from the
 * token's shared counter row (`token:<id>` in `rate_limit_counters`) in one atomic statement, a
 * lease of at most 1/32 of what is left of the window and at most 100, and hands them out from
 * memory; once the counter is used up it refuses from memory until the window ends. The steps
 * without the database, for the synchronous and the asynchronous driver.
 */
class Leases {
  private readonly leases = new Map<string, Lease>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** The count of one more request from the current lease, or the size of the lease to take first. */
  next(key: string): { counted: Counted } | { take: number } {
    let lease = this.leases.get(key);
    if (lease && lease.resetAtMs <= Date.now()) {
      this.leases.delete(key);
      lease = undefined;
    }
    if (lease && lease.unused > 0) {
      lease.unused -= 1;
      return { counted: { totalHits: lease.countedAfterLease - lease.unused, resetAtMs: lease.resetAtMs } };
    }
    if (lease && lease.countedAfterLease >= this.max)
      return { counted: { totalHits: lease.countedAfterLease + 1, resetAtMs: lease.resetAtMs } };
    const remaining = this.max - (lease?.countedAfterLease ?? 0);
    return { take: Math.max(1, Math.min(MAX_LEASE, Math.floor(remaining / LEASE_SHARE_OF_REMAINING))) };
  }

  /** Keeps the lease the shared counter granted: what was left of the limit, at most `size`. */
  taken(key: string, size: number, counter: { hits: number; resetAtMs: number }): void {
    const countedBefore = counter.hits - size;
    const granted = Math.max(0, Math.min(size, this.max - countedBefore));
    this.leases.set(key, { resetAtMs: counter.resetAtMs, countedAfterLease: countedBefore + granted, unused: granted });
  }
}

/** Leased counting on a synchronous driver (better-sqlite3): a lease is taken before the request goes on. */
export function countInLeases(max: number, windowMs: number, take: TakeHits<{ hits: number; resetAtMs: number }>) {
  const leases = new Leases(max, windowMs);
  return (principal: Principal): Counted => {
    const key = `token:${principal.tokenId}`;
    for (;;) {
      const step = leases.next(key);
      if ('counted' in step) return step.counted;
      leases.taken(key, step.take, take(key, windowMs, Date.now(), step.take));
    }
  };
}

/**
 * Leased counting on an asynchronous driver (pg): answered at once from the lease; requests of one
 * key that find it used up wait for one lease request instead of each taking a lease, as the
 * project's store does.
 */
export function countInLeasesAsync(
  max: number,
  windowMs: number,
  take: TakeHits<Promise<{ hits: number; resetAtMs: number }>>,
): CountHit {
  const leases = new Leases(max, windowMs);
  const leasing = new Map<string, Promise<void>>();
  const count = (key: string): Counted | Promise<Counted> => {
    const step = leases.next(key);
    if ('counted' in step) return step.counted;
    let pending = leasing.get(key);
    if (!pending) {
      pending = take(key, windowMs, Date.now(), step.take)
        .then((counter) => leases.taken(key, step.take, counter))
        .finally(() => leasing.delete(key));
      leasing.set(key, pending);
    }
    return pending.then(() => count(key));
  };
  return (principal) => count(`token:${principal.tokenId}`);
}

/** The shared counters of the project's SQLite database, as one prepared statement. */
export function sqliteCounters(db: Sqlite): TakeHits<{ hits: number; resetAtMs: number }> {
  const hit = db.prepare<unknown[], { hits: number; reset_at_ms: number }>(HIT_COUNTER_SQL);
  return (key, windowMs, nowMs, count) => {
    const row = hit.get(...hitCounterParameters(key, windowMs, nowMs, count))!;
    return { hits: Number(row.hits), resetAtMs: Number(row.reset_at_ms) };
  };
}
