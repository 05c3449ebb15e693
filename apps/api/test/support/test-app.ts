import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import pino from 'pino';
import { FixedClock } from '@brand/core';
import { Dialect, Storage, openTestStorage } from '@brand/persistence-kysely';
import { AppDeps, createApp, requestLogOf } from '../../src/app';
import { AppConfig, DEFAULT_CONFIG } from '../../src/config';
import { nodeSecretHasher } from '../../src/infrastructure/node-secret-hasher';

/** Settings for tests: a limit no ordinary test reaches, silence in the logs, and image blobs in a temporary folder. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...DEFAULT_CONFIG,
    rateLimit: { windowMs: 60_000, max: 100_000 },
    logLevel: 'silent',
    images: { ...DEFAULT_CONFIG.images, blobDir: join(tmpdir(), `brand-test-blobs-${process.pid}`) },
    ...overrides,
  };
}

export const silentLogger = pino({ level: 'silent' });

/** The app over a given storage, with a clock the test controls. */
export function buildApp(
  storage: Storage,
  clock: FixedClock,
  overrides: Omit<Partial<AppDeps>, 'config'> & { config?: Partial<AppConfig> } = {},
): express.Application {
  const { config, ...deps } = overrides;
  return createApp({
    storage,
    clock,
    hasher: nodeSecretHasher,
    logger: silentLogger,
    config: testConfig(config),
    ...deps,
  });
}

export interface TestContext {
  /** The test database; `url` names it, for a second connection. */
  storage: Storage & { url: string };
  clock: FixedClock;
  app: express.Application;
  /** Writes the buffered request log now. */
  flushRequestLog(): Promise<void>;
}

/**
 * Opens a fresh database of `dialect` in `beforeAll` (through `open`) and closes it in
 * `afterAll`; the returned object is filled once `beforeAll` ran.
 */
export function useTestApp(
  dialect: Dialect,
  config: Partial<AppConfig> = {},
  open: typeof openTestStorage = openTestStorage,
): TestContext {
  const context = {} as TestContext;
  beforeAll(async () => {
    context.storage = await open(dialect);
    context.clock = new FixedClock('2026-03-01T09:00:00.000Z');
    context.app = buildApp(context.storage, context.clock, { config });
    context.flushRequestLog = () => requestLogOf(context.app).flush();
  });
  afterAll(async () => {
    await context.flushRequestLog?.();
    await context.storage?.close();
  });
  return context;
}
