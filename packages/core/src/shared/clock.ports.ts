/**
 * Time comes from a port so that both storage dialects and every test see the same instants.
 * @example const now = clock.now(); // '2026-11-22T10:15:00.000Z'
 */
export interface Clock {
  /** The current instant as an ISO-8601 UTC string with milliseconds (fixed width, so it sorts as text). */
  now(): string;
}

// The last instant the system clock formatted: a busy server asks several times within the same
// millisecond (a request's log row, its token's expiry), and formatting a date is the costly part.
let lastMillis = Number.NaN;
let lastInstant = '';

/** The real clock (`new Date()`), for production wiring; tests use `FixedClock`. */
export const systemClock: Clock = {
  now: () => {
    const millis = Date.now();
    if (millis !== lastMillis) {
      lastMillis = millis;
      lastInstant = new Date(millis).toISOString();
    }
    return lastInstant;
  },
};

/** A clock that only moves when told to; for tests. */
export class FixedClock implements Clock {
  private current: number;

  constructor(start = '2026-01-01T00:00:00.000Z') {
    this.current = Date.parse(start);
  }

  now(): string {
    return new Date(this.current).toISOString();
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}
