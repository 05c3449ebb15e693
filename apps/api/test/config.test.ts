import { DEFAULT_CONFIG, loadConfig } from '../src/config';

// Configuration touches no storage, so this file does not loop over dialects.
describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      databaseUrl: './data/brand.sqlite',
      rateLimit: { windowMs: 60_000, max: 600 },
      bodyLimit: '1mb',
      maintenanceMode: false,
      logLevel: 'info',
      requestLogFlushMs: 200,
    });
    expect(loadConfig({})).toEqual(DEFAULT_CONFIG);
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        DATABASE_URL: 'postgres://db/brand',
        RATE_LIMIT_WINDOW_MS: '1000',
        RATE_LIMIT_MAX: '5',
        BODY_LIMIT: '500kb',
        MAINTENANCE_MODE: 'on',
        LOG_LEVEL: 'WARN',
        REQUEST_LOG_FLUSH_MS: '50',
      }),
    ).toEqual({
      port: 8080,
      databaseUrl: 'postgres://db/brand',
      rateLimit: { windowMs: 1000, max: 5 },
      bodyLimit: '500kb',
      maintenanceMode: true,
      logLevel: 'warn',
      requestLogFlushMs: 50,
    });
  });

  it('treats blank variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' })).toMatchObject({ port: 3000, databaseUrl: './data/brand.sqlite' });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ RATE_LIMIT_MAX: '0' }, /RATE_LIMIT_MAX/],
    [{ MAINTENANCE_MODE: 'maybe' }, /MAINTENANCE_MODE must be on or off/],
    [{ BODY_LIMIT: 'huge' }, /BODY_LIMIT must be a size/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
