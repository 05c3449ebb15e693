/** How a client retries. Every field has a default (see `DEFAULT_RETRY_POLICY`). */
export interface RetryPolicy {
  /** Retries after the first attempt (so `retries + 1` attempts at most). */
  retries: number;
  /** The backoff before the first retry; it doubles with every further retry. */
  baseDelayMs: number;
  /** The longest backoff between two attempts. */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` the client waits for. A longer one (a rate limit window ending in
   * an hour) is not waited out: the error is thrown, and the caller decides.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/**
 * The statuses worth sending again as they were: the request did not run (rate limit, maintenance,
 * storage unavailable) and the answer says so. Other 4xx answers are the request's own fault and
 * would only repeat.
 */
const RETRYABLE_STATUSES = new Set([429, 503]);

/**
 * A 409 is retried only for `idempotency_key_in_use`: the first request with the key is still
 * running, and the retry answers its stored result once it finished.
 */
const RETRYABLE_CONFLICT_CODE = 'idempotency_key_in_use';

/** Whether an answer with this status and first error code should be sent again. */
export function isRetryableAnswer(status: number, code: string | number | undefined): boolean {
  return RETRYABLE_STATUSES.has(status) || (status === 409 && code === RETRYABLE_CONFLICT_CODE);
}

/**
 * The wait before retry number `retry` (1 for the first): exponential, with "equal jitter" (half
 * fixed, half random) so that many clients refused at once do not come back at once, while each
 * still waits at least half the step.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return step / 2 + random() * (step / 2);
}

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when
 * absent or unreadable. A date in the past means "now".
 */
export function retryAfterMs(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}
