import { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { RateLimitCounters } from '@brand/persistence-kysely';

/**
 * A lease takes at most this share of what is left of a window, so the hits one process holds
 * unused (when its clients stop or move to another process) stay a small part of the limit.
 */
const LEASE_SHARE_OF_REMAINING = 32;
/** And never more than this many hits at once. */
const MAX_LEASE = 100;

/** Hits one process took from the shared counter for one key and has not handed out yet. */
interface Lease {
  resetAtMs: number;
  /** The shared counter's value once this lease was taken (everything counted so far, by every process). */
  countedAfterLease: number;
  unused: number;
}

/**
 * express-rate-limit's Store on the database's fixed-window counters, shared by every API process,
 * without a database write per request: a process takes hits from the shared counter in small
 * leases and hands them out from memory.
 *
 * - Exact within a process: each request uses one leased hit; lease requests for one key never overlap.
 * - Never over the limit across processes: a lease is granted only out of what the shared counter
 *   has left, so all processes together admit at most `limit` requests per window.
 * - The price is a bounded undershoot: hits leased by a process whose clients went elsewhere stay
 *   unused until the window ends. A lease is at most 1/32 of what was left (and at most 100 hits),
 *   and near the limit leases shrink to one hit, so with N processes the clients of a token get at
 *   least `limit − (N − 1) × limit / 32` requests per window.
 * - Once the shared counter is used up, the process answers 429 from memory until the window ends.
 *
 * Time is the wall clock, as the library computes `Retry-After` and `RateLimit` reset seconds from
 * `Date.now()` too.
 */
export class DatabaseRateLimitStore implements Store {
  /** Counters live in a shared database: hits made by one process count for all. */
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;
  private limit = 1;
  private readonly leases = new Map<string, Lease>();
  /** Lease requests on their way to the database, so concurrent requests of one key wait for one instead of each taking a lease. */
  private readonly leasing = new Map<string, Promise<void>>();

  constructor(
    private readonly counters: RateLimitCounters,
    prefix = 'token:',
  ) {
    this.prefix = prefix;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
    if (typeof options.limit !== 'number') throw new Error('the rate limit store needs a fixed numeric limit');
    this.limit = options.limit;
  }

  /**
   * Answers at once from the process's lease when it can (the common case: no promise is made),
   * else takes a lease from the shared counter first.
   */
  increment(key: string): ClientRateLimitInfo | Promise<ClientRateLimitInfo> {
    return this.fromLease(key) ?? this.incrementAfterLease(key);
  }

  /** The hit answered from the current lease, or undefined when the database must be asked. */
  private fromLease(key: string): ClientRateLimitInfo | undefined {
    const lease = this.currentLease(key);
    if (lease && lease.unused > 0) {
      lease.unused -= 1;
      return { totalHits: lease.countedAfterLease - lease.unused, resetTime: new Date(lease.resetAtMs) };
    }
    if (lease && lease.countedAfterLease >= this.limit) {
      // The shared counter is used up for this window: refused without asking the database again.
      return { totalHits: lease.countedAfterLease + 1, resetTime: new Date(lease.resetAtMs) };
    }
    return undefined;
  }

  private async incrementAfterLease(key: string): Promise<ClientRateLimitInfo> {
    for (;;) {
      const answered = this.fromLease(key);
      if (answered) return answered;
      const pending = this.leasing.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const taking = this.takeLease(key, this.currentLease(key)).finally(() => this.leasing.delete(key));
      this.leasing.set(key, taking);
      await taking;
    }
  }

  /** Gives a hit back to this process's lease (`giveBackHit`: an answer that does not count). */
  async decrement(key: string): Promise<void> {
    const lease = this.currentLease(key);
    if (lease) lease.unused += 1;
  }

  async resetKey(key: string): Promise<void> {
    this.leases.delete(key);
    await this.counters.reset(this.prefix + key);
  }

  private currentLease(key: string): Lease | undefined {
    const lease = this.leases.get(key);
    if (lease && lease.resetAtMs <= Date.now()) {
      this.leases.delete(key);
      return undefined;
    }
    return lease;
  }

  private async takeLease(key: string, previous: Lease | undefined): Promise<void> {
    const remaining = this.limit - (previous?.countedAfterLease ?? 0);
    const size = Math.max(1, Math.min(MAX_LEASE, Math.floor(remaining / LEASE_SHARE_OF_REMAINING)));
    const { hits, resetAtMs } = await this.counters.hit(this.prefix + key, this.windowMs, Date.now(), size);
    const countedBefore = hits - size;
    const granted = Math.max(0, Math.min(size, this.limit - countedBefore));
    this.leases.set(key, { resetAtMs, countedAfterLease: countedBefore + granted, unused: granted });
  }
}
