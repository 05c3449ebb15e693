import { randomUUID } from 'node:crypto';
import type { ApiResult } from './api-result';
import { BrandApiError, BrandNetworkError, REQUEST_ID_HEADER } from './brand-api-error';
import type { ClientOptions } from './client-options';
import { OAuthSession } from './oauth-session';
import { toQueryString } from './query-string';
import { DEFAULT_RETRY_POLICY, RetryPolicy, backoffDelayMs, isRetryableAnswer, retryAfterMs } from './retry-policy';
import { sleep } from './sleep';
import type { CallOptions } from './typed-paths';

/** The request header of the API app's key (current interface). */
export const APP_KEY_HEADER = 'X-Service-App-Key';
/** The request header making a write safe to send again (DESIGN §12). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The methods that take an `Idempotency-Key`: every other one is safe to repeat by itself. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A call as the typed methods hand it over, before anything is sent. */
export interface OutgoingCall extends CallOptions {
  method: string;
  /** The document's path, with `{name}` placeholders. */
  path: string;
  params?: {
    path?: Readonly<Record<string, unknown>>;
    query?: Readonly<Record<string, unknown>>;
    header?: Readonly<Record<string, unknown>>;
  };
  body?: unknown;
}

/** A path or header parameter as text: scalars as they are written, anything else as JSON. */
function parameterText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function fillPath(template: string, values: Readonly<Record<string, unknown>> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '')
      throw new TypeError(`${template} needs params.path.${name}`);
    return encodeURIComponent(parameterText(value));
  });
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('Content-Type') ?? '';
  if (!/[/+]json\b/i.test(type) && type !== '') return response.arrayBuffer();
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not the API's JSON (a proxy's page): kept as text for the error it becomes.
    return text;
  }
}

/**
 * Sends calls: authentication, idempotency keys, conditional headers, retries with backoff, the
 * OAuth refresh and replay, and the translation of answers into results or `BrandApiError`s.
 */
export class Transport {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly policy: RetryPolicy;
  private readonly session: OAuthSession | null;
  private readonly appKey: string | null;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Bound: a bare reference to the global fetch loses its receiver and throws when called.
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.policy = {
      ...DEFAULT_RETRY_POLICY,
      ...options.retry,
      ...(options.retries !== undefined ? { retries: options.retries } : {}),
    };
    this.appKey = options.appKey ?? options.oauth?.clientSecret ?? null;
    this.session = options.oauth
      ? new OAuthSession(
          { ...options.oauth, tokenUrl: options.oauth.tokenUrl ?? `${this.baseUrl}/oauth/token` },
          options.accessToken ?? null,
          this.fetchImpl,
        )
      : null;
  }

  /** The full URL of a call. */
  urlOf(call: Pick<OutgoingCall, 'path' | 'params'>): string {
    const query = toQueryString(call.params?.query);
    return `${this.baseUrl}${fillPath(call.path, call.params?.path)}${query ? `?${query}` : ''}`;
  }

  async send(call: OutgoingCall): Promise<ApiResult<unknown>> {
    const method = call.method.toUpperCase();
    const url = this.urlOf(call);
    const headers = this.headersOf(call, method);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    let token = this.session ? await this.session.currentToken() : (this.options.accessToken ?? null);
    let replayedAfterRefresh = false;
    for (let attempt = 1; ; attempt++) {
      if (token !== null) headers.set('Authorization', `Bearer ${token}`);
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method, headers, body, signal: call.signal ?? null });
      } catch (error) {
        if (call.signal?.aborted) throw error;
        if (attempt > this.policy.retries) throw new BrandNetworkError(method, url, attempt, error);
        await this.wait(backoffDelayMs(attempt, this.policy, this.random), call.signal);
        continue;
      }

      // One refresh and one replay per call; the replay is the same request, not a retry.
      if (response.status === 401 && this.session && token !== null && !replayedAfterRefresh) {
        await response.body?.cancel();
        token = await this.session.tokenAfterRejection(token);
        replayedAfterRefresh = true;
        attempt -= 1;
        continue;
      }

      const meta = {
        status: response.status,
        etag: response.headers.get('ETag'),
        requestId: response.headers.get(REQUEST_ID_HEADER),
        headers: response.headers,
      };
      if (response.status === 304) {
        await response.body?.cancel();
        return { ...meta, notModified: true, data: undefined };
      }
      if (response.ok) return { ...meta, notModified: false, data: await readBody(response) };

      const waitMs = retryAfterMs(response.headers.get('Retry-After'), this.now());
      const error = new BrandApiError({
        status: response.status,
        body: await readBody(response),
        headers: response.headers,
        method,
        url,
        retryAfterSeconds: waitMs === null ? null : Math.ceil(waitMs / 1000),
      });
      const retryable = isRetryableAnswer(error.status, error.code) && attempt <= this.policy.retries;
      if (!retryable || (waitMs !== null && waitMs > this.policy.maxRetryAfterMs)) throw error;
      await this.wait(waitMs ?? backoffDelayMs(attempt, this.policy, this.random), call.signal);
    }
  }

  private headersOf(call: OutgoingCall, method: string): Headers {
    const headers = new Headers({ Accept: 'application/json', ...this.options.headers });
    for (const [name, value] of Object.entries(call.params?.header ?? {}))
      if (value !== undefined && value !== null) headers.set(name, parameterText(value));
    for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
    if (this.appKey !== null) headers.set(APP_KEY_HEADER, this.appKey);
    if (call.body !== undefined) headers.set('Content-Type', 'application/json');
    // Made once per call, before the first attempt, so every retry of the call carries the same key.
    if (WRITE_METHODS.has(method))
      headers.set(
        IDEMPOTENCY_KEY_HEADER,
        call.idempotencyKey ?? headers.get(IDEMPOTENCY_KEY_HEADER) ?? this.makeIdempotencyKey(),
      );
    if (call.ifMatch !== undefined) headers.set('If-Match', call.ifMatch);
    if (call.ifNoneMatch !== undefined) headers.set('If-None-Match', call.ifNoneMatch);
    return headers;
  }

  private wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return (this.options.sleep ?? sleep)(ms, signal);
  }

  private readonly random = (): number => (this.options.random ?? Math.random)();
  private readonly now = (): number => (this.options.now ?? Date.now)();
  private readonly makeIdempotencyKey = (): string => (this.options.makeIdempotencyKey ?? randomUUID)();
}
