/**
 * The delays before each attempt of a delivery, in milliseconds (DESIGN §10): at once, then
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; after the last attempt the delivery has failed.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** How much a delay is stretched or shrunk at random, so failed deliveries of one outage do not all come back at once. */
export const RETRY_JITTER = 0.1;

/**
 * When the attempt after `attemptsMade` attempts is due, or null when the schedule is used up.
 * `random` is a number in [0, 1) (Math.random in production, fixed in tests).
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attemptsMade: number,
  now: string,
  random: number,
): string | null {
  const delay = schedule[attemptsMade];
  if (delay === undefined) return null;
  const jittered = Math.round(delay * (1 + RETRY_JITTER * (2 * random - 1)));
  return new Date(Date.parse(now) + jittered).toISOString();
}

/**
 * Reads a schedule such as `0,5s,5m,30m,2h` (a number alone is milliseconds; `ms`, `s`, `m`, `h`
 * units); throws naming the first entry it cannot read.
 */
export function parseRetrySchedule(text: string): number[] {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 0 || entries.some((entry) => entry === ''))
    throw new Error(
      `a retry schedule is a comma-separated list of delays such as 0,5s,5m; got ${JSON.stringify(text)}`,
    );
  return entries.map((entry) => {
    const match = /^(\d{1,9})(ms|s|m|h)?$/.exec(entry);
    if (!match)
      throw new Error(
        `the retry delay ${JSON.stringify(entry)} is not a whole number with an optional unit (ms, s, m, h)`,
      );
    return Number(match[1]) * units[match[2] ?? 'ms']!;
  });
}
