import { availableParallelism } from 'node:os';
import { DEFAULT_CONFIG, loadConfig } from '../src/config';

// Configuration touches no storage, so this file does not loop over dialects.
describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
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
      keepAliveTimeoutMs: 5_000,
      maintenanceMode: false,
      logLevel: 'info',
      requestLogFlushMs: 200,
      requestLogRetentionDays: 30,
      images: {
        fetchTimeoutMs: 10_000,
        maxBytes: 10 * 1024 * 1024,
        allowedHosts: [],
        blobDir: './data/blobs',
        mediaBaseUrl: null,
      },
      webhooks: {
        timeoutMs: 10_000,
        retrySchedule: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
        allowedHosts: [],
        leaseMs: 25_000,
      },
      bulk: { maxBytes: 100 * 1024 * 1024, leaseMs: 300_000 },
    });
    expect(loadConfig({})).toEqual(DEFAULT_CONFIG);
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        WEB_CONCURRENCY: '3',
        DATABASE_URL: 'postgres://db/brand',
        METRICS_PORT: '9464',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.internal:4318/',
        OTEL_SERVICE_NAME: 'brand-api-eu',
        RATE_LIMIT_WINDOW_MS: '1000',
        RATE_LIMIT_MAX: '5',
        OAUTH_TOKEN_RATE_LIMIT_MAX: '7',
        PUBLIC_BASE_URL: 'https://api.brand.example/',
        TRUST_PROXY: 'loopback, 10.0.0.0/8',
        BODY_LIMIT: '500kb',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        MAINTENANCE_MODE: 'on',
        LOG_LEVEL: 'WARN',
        REQUEST_LOG_FLUSH_MS: '50',
        REQUEST_LOG_RETENTION_DAYS: '90',
        IMAGE_FETCH_TIMEOUT_MS: '2500',
        IMAGE_MAX_BYTES: '1048576',
        IMAGE_ALLOWED_HOSTS: 'images.internal:8080, 10.20.0.0/16,,[fd00::1]:443',
        BLOB_DIR: '/var/lib/brand/blobs',
        MEDIA_BASE_URL: 'https://api.brand.example/',
        WEBHOOK_TIMEOUT_MS: '3000',
        WEBHOOK_RETRY_SCHEDULE: '0, 1s,250ms,2m,1h',
        WEBHOOK_ALLOWED_HOSTS: 'hooks.internal,127.0.0.1',
        WEBHOOK_LEASE_MS: '4000',
        BULK_MAX_BYTES: '1048576',
        BULK_LEASE_MS: '60000',
      }),
    ).toEqual({
      port: 8080,
      workers: 3,
      databaseUrl: 'postgres://db/brand',
      metricsPort: 9464,
      tracing: { endpoint: 'http://collector.internal:4318', serviceName: 'brand-api-eu' },
      rateLimit: { windowMs: 1000, max: 5 },
      oauthTokenRateLimitMax: 7,
      publicBaseUrl: 'https://api.brand.example',
      trustProxy: ['loopback', '10.0.0.0/8'],
      bodyLimit: '500kb',
      keepAliveTimeoutMs: 65_000,
      maintenanceMode: true,
      logLevel: 'warn',
      requestLogFlushMs: 50,
      requestLogRetentionDays: 90,
      images: {
        fetchTimeoutMs: 2500,
        maxBytes: 1048576,
        allowedHosts: ['images.internal:8080', '10.20.0.0/16', '[fd00::1]:443'],
        blobDir: '/var/lib/brand/blobs',
        mediaBaseUrl: 'https://api.brand.example',
      },
      webhooks: {
        timeoutMs: 3000,
        retrySchedule: [0, 1000, 250, 120_000, 3_600_000],
        allowedHosts: ['hooks.internal', '127.0.0.1'],
        leaseMs: 4_000,
      },
      bulk: { maxBytes: 1_048_576, leaseMs: 60_000 },
    });
  });

  it('holds a webhook claim twice the timeout and 5 s by default, and never less than the timeout and a second', () => {
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '1000' }).webhooks.leaseMs).toBe(7_000);
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_LEASE_MS: '2000' }).webhooks.leaseMs).toBe(2_000);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_LEASE_MS: '1999' })).toThrow(
      /WEBHOOK_LEASE_MS must be a whole number from 2000 to 86400000; got "1999"/,
    );
    expect(() => loadConfig({ WEBHOOK_LEASE_MS: '10000' })).toThrow(
      /WEBHOOK_LEASE_MS must be a whole number from 11000/,
    );
  });

  it('keeps no metrics without METRICS_PORT, and refuses a port that is not one or is the API’s own', () => {
    expect(loadConfig({ METRICS_PORT: ' ' }).metricsPort).toBeNull();
    expect(() => loadConfig({ METRICS_PORT: '65536' })).toThrow(/METRICS_PORT must be a whole number from 0 to 65535/);
    expect(() => loadConfig({ METRICS_PORT: '-1' })).toThrow(/METRICS_PORT must be a whole number from 0 to 65535/);
    expect(() => loadConfig({ METRICS_PORT: 'on' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ PORT: '9464', METRICS_PORT: '9464' })).toThrow(/METRICS_PORT must differ from PORT/);
  });

  it('takes METRICS_PORT 0 as a port the system picks, beside a PORT 0 too', () => {
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' })).toMatchObject({ port: 0, metricsPort: 0 });
  });

  it('traces only with OTEL_EXPORTER_OTLP_ENDPOINT, and refuses an endpoint or service name it cannot use', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_SERVICE_NAME: 'shop' }).tracing).toEqual({
      endpoint: null,
      serviceName: 'shop',
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/otlp' }).tracing.endpoint).toBe(
      'https://otel.example/otlp',
    );
    for (const endpoint of ['collector:4318', 'grpc://collector:4317', 'http://collector:4318/?x=1'])
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(
        /OTEL_EXPORTER_OTLP_ENDPOINT must be an absolute http\(s\) URL without query/,
      );
    expect(() => loadConfig({ OTEL_SERVICE_NAME: 'brand\napi' })).toThrow(/OTEL_SERVICE_NAME must be/);
  });

  it('refuses a retry schedule it cannot read, naming the variable and the entry', () => {
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,5x' })).toThrow(/WEBHOOK_RETRY_SCHEDULE: .*"5x"/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,,5s' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'not a host!' })).toThrow(/WEBHOOK_ALLOWED_HOSTS/);
  });

  it('refuses a public base URL that is not an absolute http(s) URL, naming the variable', () => {
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'api.brand.example' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'https://api.brand.example/?x=1' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadConfig({ OAUTH_TOKEN_RATE_LIMIT_MAX: '0' })).toThrow(/OAUTH_TOKEN_RATE_LIMIT_MAX/);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '500' })).toThrow(
      /KEEP_ALIVE_TIMEOUT_MS must be a whole number from 1000 to 600000/,
    );
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '5s' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS/);
  });

  it('trusts no proxy by default, a number of hops, or listed proxies; never every sender', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'uniquelocal,fd00::/8' }).trustProxy).toEqual(['uniquelocal', 'fd00::/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY .*never true/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '999.1.1.1' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '11' })).toThrow(/TRUST_PROXY/);
  });

  it('treats blank variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' })).toMatchObject({
      port: 3000,
      databaseUrl: './data/brand.sqlite',
    });
  });

  it('starts one worker per CPU for WEB_CONCURRENCY auto or 0', () => {
    for (const value of ['auto', 'AUTO', '0'])
      expect(loadConfig({ WEB_CONCURRENCY: value, DATABASE_URL: 'postgres://db/brand' }).workers).toBe(
        availableParallelism(),
      );
  });

  it('allows one process on SQLite however WEB_CONCURRENCY spells it', () => {
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).workers).toBe(1);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ RATE_LIMIT_MAX: '0' }, /RATE_LIMIT_MAX/],
    [{ REQUEST_LOG_RETENTION_DAYS: '0' }, /REQUEST_LOG_RETENTION_DAYS must be a whole number from 1 to 3650/],
    [{ REQUEST_LOG_RETENTION_DAYS: '30d' }, /REQUEST_LOG_RETENTION_DAYS must be a whole number/],
    [{ MAINTENANCE_MODE: 'maybe' }, /MAINTENANCE_MODE must be on or off/],
    [{ BODY_LIMIT: 'huge' }, /BODY_LIMIT must be a size/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ IMAGE_FETCH_TIMEOUT_MS: '10s' }, /IMAGE_FETCH_TIMEOUT_MS must be a whole number/],
    [{ IMAGE_MAX_BYTES: '0' }, /IMAGE_MAX_BYTES must be a whole number/],
    [{ IMAGE_ALLOWED_HOSTS: 'images.internal,10.0.0.0/33' }, /IMAGE_ALLOWED_HOSTS: "10.0.0.0\/33" is not a CIDR range/],
    [
      { IMAGE_ALLOWED_HOSTS: 'http://images.internal' },
      /IMAGE_ALLOWED_HOSTS: "http:\/\/images.internal" is not a CIDR range .*entries are host\[:port\]/,
    ],
    [
      { IMAGE_ALLOWED_HOSTS: 'images.internal:http' },
      /IMAGE_ALLOWED_HOSTS: "images.internal:http" has an invalid port/,
    ],
    [{ WEB_CONCURRENCY: 'many' }, /WEB_CONCURRENCY must be auto, 0 .* or a whole number up to 256/],
    [{ WEB_CONCURRENCY: '1000', DATABASE_URL: 'postgres://db/brand' }, /WEB_CONCURRENCY must be auto/],
    [{ WEB_CONCURRENCY: '2' }, /WEB_CONCURRENCY=2 needs a Postgres DATABASE_URL: SQLite takes one writer at a time/],
    [{ WEB_CONCURRENCY: '4', DATABASE_URL: 'sqlite:/var/lib/brand.sqlite' }, /WEB_CONCURRENCY=4 needs a Postgres/],
    [{ MEDIA_BASE_URL: 'cdn.brand.example' }, /MEDIA_BASE_URL must be an absolute http\(s\) URL/],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
