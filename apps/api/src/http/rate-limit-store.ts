import { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { RateLimitCounters } from '@brand/persistence-kysely';

/**
 * express-rate-limit's Store on the database's fixed-window counters, so every API process
 * counts against the same limit. Time is the wall clock, as the library computes `Retry-After`
 * and `RateLimit` reset seconds from `Date.now()` too.
 */
export class DatabaseRateLimitStore implements Store {
  /** Counters live in a shared database: hits made by one process count for all. */
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;

  constructor(
    private readonly counters: RateLimitCounters,
    prefix = 'token:',
  ) {
    this.prefix = prefix;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { hits, resetAtMs } = await this.counters.hit(this.prefix + key, this.windowMs, Date.now());
    return { totalHits: hits, resetTime: new Date(resetAtMs) };
  }

  async decrement(key: string): Promise<void> {
    await this.counters.undo(this.prefix + key);
  }

  async resetKey(key: string): Promise<void> {
    await this.counters.reset(this.prefix + key);
  }
}
