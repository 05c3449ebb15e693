import { DEFAULT_RETRY_SCHEDULE_MS, REQUEST_LOG_RETENTION_DAYS, parseRetrySchedule } from '@brand/core';
import { availableParallelism } from 'node:os';
import express from 'express';
import { parseDatabaseUrl } from '@brand/persistence-kysely';
import { AddressPolicy } from './infrastructure/address-policy';
import { TracingConfig } from './tracing/tracing';

/**
 * Runtime settings, read once from the environment at start. Every value has a default that
 * works for a first `pnpm start` on one machine; an invalid value stops the start with a message
 * naming the variable rather than running with a surprising setting.
 */
export interface AppConfig {
  port: number;
  /**
   * API processes on this machine: 1 is one process, as `pnpm start` always ran; more start a
   * primary that forks that many workers sharing the port (Postgres only).
   */
  workers: number;
  /** A SQLite file path (or `sqlite:<path>`), `:memory:`, or a `postgres://` URL. */
  databaseUrl: string;
  /**
   * Port of the Prometheus listener (`GET /metrics`), apart from the API's so that it is not
   * exposed with it; null (the default): no metrics are kept at all. With several workers the
   * primary listens and answers for all of them.
   */
  metricsPort: number | null;
  /**
   * OpenTelemetry tracing: off (the default, endpoint null) unless `OTEL_EXPORTER_OTLP_ENDPOINT`
   * names a collector; `OTEL_SERVICE_NAME` names the service in every span.
   */
  tracing: TracingConfig;

  rateLimit: {
    /** Length of one fixed rate-limit window. */
    windowMs: number;
    /** Requests one access token may make per window. */
    max: number;
  };
  /**
   * Requests one client address may make to `POST /oauth/token` per rate-limit window: the
   * endpoint is reached before any token exists, so it is limited by address, and more tightly.
   */
  oauthTokenRateLimitMax: number;
  /**
   * The public origin the API is reached at (`https://api.brand.example`): the OAuth issuer and
   * the endpoints the metadata document names. Null: the scheme and host of the request.
   */
  publicBaseUrl: string | null;
  /**
   * Which proxies in front of the API are trusted for the client's address and scheme
   * (X-Forwarded-For, X-Forwarded-Proto): false (none, the default), a number of proxy hops, or
   * addresses and ranges (`loopback`, `uniquelocal`, `10.0.0.0/8`). Behind a TLS-terminating proxy
   * this is what makes console cookies Secure and login throttling count the real client.
   */
  trustProxy: false | number | string[];
  /** Largest accepted JSON body, in the `bytes` notation body parsers take ('1mb', '500kb'). */
  bodyLimit: string;
  /**
   * How long an idle keep-alive connection stays open for the client's next request. Behind a
   * load balancer it must be longer than the balancer's own idle timeout (60 s on common ones):
   * otherwise the server may close a connection just as the balancer sends on it, and the client
   * gets a 502.
   */
  keepAliveTimeoutMs: number;
  /** While on, every route but /health answers 503. */
  maintenanceMode: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How long authenticated requests wait in memory before they are written to the request log. */
  requestLogFlushMs: number;
  /**
   * Days the request log keeps a request: older ones are deleted by every process's housekeeping.
   * Ended access tokens are kept at least as long, so every logged request finds its token.
   */
  requestLogRetentionDays: number;
  /** Product image downloads and storage. */
  images: {
    /** The whole download of one image (every redirect and the body) must finish within this. */
    fetchTimeoutMs: number;
    /** Largest image accepted, in bytes. */
    maxBytes: number;
    /**
     * Targets image downloads may reach although they are loopback, private, link-local or
     * otherwise special: `host`, `host:port`, an IP address or a CIDR range. Empty by default.
     */
    allowedHosts: string[];
    /** Folder of the content-addressed blob store (created on the first stored image). */
    blobDir: string;
    /**
     * The public origin image URLs start with (`https://api.brand.example`; they end in
     * `/media/<key>`); null: the scheme and host of the request that returns them.
     */
    mediaBaseUrl: string | null;
  };
  /** Webhook deliveries (DESIGN §10). */
  webhooks: {
    /** One attempt (connecting, sending, the answer's status) must finish within this. */
    timeoutMs: number;
    /** Delays before each attempt, in milliseconds; after the last the delivery has failed. */
    retrySchedule: number[];
    /** Targets deliveries may reach although special (loopback, private …), as IMAGE_ALLOWED_HOSTS. */
    allowedHosts: string[];
    /**
     * How long a dispatcher's claim on a delivery holds (`WEBHOOK_LEASE_MS`; by default twice the
     * timeout and 5 s): after it, a killed process's deliveries are sent by another. At least a
     * second longer than an attempt's deadline, so a claim never lapses under an attempt in flight.
     */
    leaseMs: number;
  };
  /** Bulk operations (DESIGN §16). */
  bulk: {
    /** Largest file `POST /v10/bulk-operations` accepts, in bytes (`BULK_MAX_BYTES`). */
    maxBytes: number;
    /**
     * How long a process's claim on a running operation holds unless a chunk renews it
     * (`BULK_LEASE_MS`): after it, a killed process's operation is taken over by another. Longer
     * than a chunk can take (a product chunk may download images).
     */
    leaseMs: number;
  };
}

const LOG_LEVELS: readonly AppConfig['logLevel'][] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const DEFAULT_CONFIG: AppConfig = {
  port: 3000,
  workers: 1,
  databaseUrl: './data/brand.sqlite',
  metricsPort: null,
  tracing: { endpoint: null, serviceName: 'brand-api' },
  rateLimit: { windowMs: 60_000, max: 600 },
  oauthTokenRateLimitMax: 60,
  publicBaseUrl: null,
  trustProxy: false,
  bodyLimit: '1mb',
  // Node's own default.
  keepAliveTimeoutMs: 5_000,
  maintenanceMode: false,
  logLevel: 'info',
  requestLogFlushMs: 200,
  requestLogRetentionDays: REQUEST_LOG_RETENTION_DAYS,
  images: {
    fetchTimeoutMs: 10_000,
    maxBytes: 10 * 1024 * 1024,
    allowedHosts: [],
    blobDir: './data/blobs',
    mediaBaseUrl: null,
  },
  webhooks: {
    timeoutMs: 10_000,
    retrySchedule: [...DEFAULT_RETRY_SCHEDULE_MS],
    allowedHosts: [],
    leaseMs: webhookLeaseFor(10_000),
  },
  bulk: { maxBytes: 100 * 1024 * 1024, leaseMs: 5 * 60_000 },
};

type Env = Readonly<Record<string, string | undefined>>;

function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The default claim on a webhook delivery: the attempt's deadline twice over, and time to record it. */
function webhookLeaseFor(timeoutMs: number): number {
  return 2 * timeoutMs + 5_000;
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be on or off (true/false, 1/0); got ${JSON.stringify(raw)}`);
}

/** A comma-separated list; blanks between commas are dropped. */
function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = present(env, name);
  return raw === undefined
    ? fallback
    : raw
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
}

/** Ten years: longer is a typo rather than a plan (and would keep every ended access token as long). */
const MAX_REQUEST_LOG_RETENTION_DAYS = 3650;

/** More workers than this is a typo rather than a plan (each one holds a Postgres pool of its own). */
const MAX_WORKERS = 256;

/**
 * WEB_CONCURRENCY: a number of workers, or `auto` / 0 for one per CPU. More than one needs
 * Postgres: SQLite takes one writer at a time, so workers would only queue on its file lock (see
 * docs/decisions/request-pipeline.md, "Several workers per machine").
 */
function workerCount(env: Env, name: string, databaseUrl: string): number {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return DEFAULT_CONFIG.workers;
  if (raw !== 'auto' && !(/^\d+$/.test(raw) && Number(raw) <= MAX_WORKERS)) {
    throw new Error(
      `${name} must be auto, 0 (both: one worker per CPU) or a whole number up to ${MAX_WORKERS}; got ${JSON.stringify(raw)}`,
    );
  }
  const workers = raw === 'auto' || Number(raw) === 0 ? availableParallelism() : Number(raw);
  if (workers > 1 && parseDatabaseUrl(databaseUrl).dialect === 'sqlite') {
    throw new Error(
      `${name}=${raw}${raw === String(workers) ? '' : ` (${workers} workers)`} needs a Postgres DATABASE_URL: ` +
        'SQLite takes one writer at a time, ' +
        'so several processes would queue on its file lock instead of working in parallel. ' +
        `Use postgres://… or leave ${name} at 1.`,
    );
  }
  return workers;
}

function allowlist(env: Env, name: string, fallback: string[]): string[] {
  const entries = list(env, name, fallback);
  try {
    AddressPolicy.withAllowlist(entries);
  } catch (error) {
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return entries;
}

/** The names proxy-addr knows for address ranges, besides addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: off, a number of hops, or a list of addresses, CIDR ranges and range names.
 * `true` (trust whatever X-Forwarded-For says) is refused: any client could then pick the
 * address its failed logins are counted on.
 */
function trustProxy(env: Env, name: string): AppConfig['trustProxy'] {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined || ['0', 'false', 'off', 'no'].includes(raw)) return false;
  if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
  const entries = list(env, name, []);
  const address = /^(\d+\.\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f:.]*)(\/\d{1,3})?$/;
  const wellFormed =
    entries.length > 0 && entries.every((entry) => PROXY_RANGE_NAMES.includes(entry) || address.test(entry));
  if (!wellFormed || !compilesAsTrustedProxies(entries)) {
    throw new Error(
      `${name} must be off, a number of proxy hops from 1 to 10, or a comma-separated list of proxy addresses, ` +
        `CIDR ranges, loopback, linklocal or uniquelocal (never true: clients could choose their own address); got ${JSON.stringify(raw)}`,
    );
  }
  return entries;
}

/** Whether Express accepts the list as its `trust proxy` setting (it checks every address and range). */
function compilesAsTrustedProxies(entries: string[]): boolean {
  try {
    express().set('trust proxy', entries);
    return true;
  } catch {
    return false;
  }
}

function baseUrl(env: Env, name: string): string | null {
  const raw = present(env, name);
  if (raw === undefined) return null;
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(raw))
    throw new Error(`${name} must be an absolute http(s) URL without query; got ${JSON.stringify(raw)}`);
  return raw.replace(/\/+$/, '');
}

/**
 * METRICS_PORT: off when unset; a port that is not the API's own. 0, as for PORT, is a port the
 * system picks, named in the "metrics listening" log line (what a test or a supervisor that starts
 * many servers on one machine wants: a port picked beforehand can be taken before it is bound).
 */
function metricsPort(env: Env, name: string, apiPort: number): number | null {
  if (present(env, name) === undefined) return null;
  const port = integer(env, name, 0, 0, 65535);
  if (port !== 0 && port === apiPort)
    throw new Error(`${name} must differ from PORT (${apiPort}): metrics have a listener of their own`);
  return port;
}

/** OTEL_SERVICE_NAME: what traces call this service; printable, without spaces at either end. */
function serviceName(env: Env, name: string, fallback: string): string {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (raw.length > 255 || !/^[\x21-\x7e][\x20-\x7e]*$/.test(raw))
    throw new Error(`${name} must be up to 255 printable ASCII characters; got ${JSON.stringify(raw)}`);
  return raw;
}

/**
 * Reads the configuration from environment variables: PORT, METRICS_PORT, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, WEB_CONCURRENCY, DATABASE_URL, RATE_LIMIT_WINDOW_MS,
 * RATE_LIMIT_MAX, OAUTH_TOKEN_RATE_LIMIT_MAX, PUBLIC_BASE_URL, TRUST_PROXY, BODY_LIMIT, KEEP_ALIVE_TIMEOUT_MS, MAINTENANCE_MODE, LOG_LEVEL, REQUEST_LOG_FLUSH_MS,
 * REQUEST_LOG_RETENTION_DAYS, IMAGE_FETCH_TIMEOUT_MS, IMAGE_MAX_BYTES, IMAGE_ALLOWED_HOSTS, BLOB_DIR, MEDIA_BASE_URL,
 * WEBHOOK_TIMEOUT_MS, WEBHOOK_RETRY_SCHEDULE, WEBHOOK_ALLOWED_HOSTS, WEBHOOK_LEASE_MS.
 * @example const config = loadConfig(process.env);
 */
export function loadConfig(env: Env): AppConfig {
  const bodyLimit = present(env, 'BODY_LIMIT') ?? DEFAULT_CONFIG.bodyLimit;
  if (!/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i.test(bodyLimit)) {
    throw new Error(`BODY_LIMIT must be a size such as 1mb or 500kb; got ${JSON.stringify(bodyLimit)}`);
  }
  const logLevel = (present(env, 'LOG_LEVEL') ?? DEFAULT_CONFIG.logLevel).toLowerCase();
  const webhookTimeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', DEFAULT_CONFIG.webhooks.timeoutMs, 100, 600_000);
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(logLevel)}`);
  }
  const databaseUrl = present(env, 'DATABASE_URL') ?? DEFAULT_CONFIG.databaseUrl;
  const port = integer(env, 'PORT', DEFAULT_CONFIG.port, 0, 65535);
  return {
    port,
    workers: workerCount(env, 'WEB_CONCURRENCY', databaseUrl),
    databaseUrl,
    metricsPort: metricsPort(env, 'METRICS_PORT', port),
    tracing: {
      // The collector's OTLP/HTTP base URL (http://collector:4318); spans go to its /v1/traces.
      endpoint: baseUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT'),
      serviceName: serviceName(env, 'OTEL_SERVICE_NAME', DEFAULT_CONFIG.tracing.serviceName),
    },
    rateLimit: {
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', DEFAULT_CONFIG.rateLimit.windowMs, 1000),
      max: integer(env, 'RATE_LIMIT_MAX', DEFAULT_CONFIG.rateLimit.max, 1),
    },
    oauthTokenRateLimitMax: integer(env, 'OAUTH_TOKEN_RATE_LIMIT_MAX', DEFAULT_CONFIG.oauthTokenRateLimitMax, 1),
    publicBaseUrl: baseUrl(env, 'PUBLIC_BASE_URL'),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    bodyLimit,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', DEFAULT_CONFIG.keepAliveTimeoutMs, 1000, 600_000),
    maintenanceMode: flag(env, 'MAINTENANCE_MODE', DEFAULT_CONFIG.maintenanceMode),
    logLevel: logLevel as AppConfig['logLevel'],
    requestLogFlushMs: integer(env, 'REQUEST_LOG_FLUSH_MS', DEFAULT_CONFIG.requestLogFlushMs, 1, 60_000),
    requestLogRetentionDays: integer(
      env,
      'REQUEST_LOG_RETENTION_DAYS',
      DEFAULT_CONFIG.requestLogRetentionDays,
      1,
      MAX_REQUEST_LOG_RETENTION_DAYS,
    ),
    images: {
      fetchTimeoutMs: integer(env, 'IMAGE_FETCH_TIMEOUT_MS', DEFAULT_CONFIG.images.fetchTimeoutMs, 100, 600_000),
      maxBytes: integer(env, 'IMAGE_MAX_BYTES', DEFAULT_CONFIG.images.maxBytes, 1, 1024 * 1024 * 1024),
      allowedHosts: allowlist(env, 'IMAGE_ALLOWED_HOSTS', DEFAULT_CONFIG.images.allowedHosts),
      blobDir: present(env, 'BLOB_DIR') ?? DEFAULT_CONFIG.images.blobDir,
      mediaBaseUrl: baseUrl(env, 'MEDIA_BASE_URL'),
    },
    webhooks: {
      timeoutMs: webhookTimeoutMs,
      retrySchedule: retrySchedule(env, 'WEBHOOK_RETRY_SCHEDULE', DEFAULT_CONFIG.webhooks.retrySchedule),
      allowedHosts: allowlist(env, 'WEBHOOK_ALLOWED_HOSTS', DEFAULT_CONFIG.webhooks.allowedHosts),
      leaseMs: integer(
        env,
        'WEBHOOK_LEASE_MS',
        webhookLeaseFor(webhookTimeoutMs),
        webhookTimeoutMs + 1_000,
        24 * 60 * 60_000,
      ),
    },
    bulk: {
      maxBytes: integer(env, 'BULK_MAX_BYTES', DEFAULT_CONFIG.bulk.maxBytes, 1),
      leaseMs: integer(env, 'BULK_LEASE_MS', DEFAULT_CONFIG.bulk.leaseMs, 100, 24 * 60 * 60_000),
    },
  };
}

function retrySchedule(env: Env, name: string, fallback: number[]): number[] {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  try {
    return parseRetrySchedule(raw);
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`);
  }
}
