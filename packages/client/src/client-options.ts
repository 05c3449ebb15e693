import type { OAuthOptions } from './oauth-session';
import type { RetryPolicy } from './retry-policy';

/** How to reach and authenticate with the API. */
export interface ClientOptions {
  /** The API's origin, e.g. `https://api.brand.example` (paths such as `/v10/orders` are appended). */
  baseUrl: string;
  /** An access token (personal or OAuth); with `oauth` it may be left out and is fetched by a refresh. */
  accessToken?: string;
  /** The key of the API app the token was issued for, sent as `X-Service-App-Key`; defaults to `oauth.clientSecret`. */
  appKey?: string;
  /** OAuth credentials: the client then refreshes (and rotates) the tokens itself when the access token is refused. */
  oauth?: OAuthOptions;
  /** Retries after the first attempt; shorthand for `retry.retries` (default 3; 0 turns retries off). */
  retries?: number;
  /** The rest of the retry policy. */
  retry?: Partial<RetryPolicy>;
  /** Headers sent on every call (a User-Agent naming the integration, say). */
  headers?: Record<string, string>;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  /** Waits between attempts; replace it in tests to make retries instant. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1); `Math.random` by default. */
  random?: () => number;
  /** Epoch milliseconds, to read a `Retry-After` date; `Date.now` by default. */
  now?: () => number;
  /** Makes the `Idempotency-Key` of a write; `crypto.randomUUID` by default. */
  makeIdempotencyKey?: () => string;
}
