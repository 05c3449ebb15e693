import { Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import pino from 'pino';
import { FixedClock } from '@brand/core';
import { Dialect, Storage } from '@brand/persistence-kysely';
import { openTestStorage } from '@brand/persistence-kysely/testing';
import { AppDeps, createApp, requestLogOf } from '../../src/app';
import { AppConfig, DEFAULT_CONFIG } from '../../src/config';
import { nodeSecretHasher } from '../../src/infrastructure/node-secret-hasher';
import { checkResponsesAgainstDocument } from './response-conformance';
import { testPasswordHasher } from './test-password-hasher';

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

/** The app over a given storage, with a clock the test controls; every response it sends is checked against its OpenAPI document. */
export function buildApp(
  storage: Storage,
  clock: FixedClock,
  overrides: Omit<Partial<AppDeps>, 'config'> & { config?: Partial<AppConfig> } = {},
): express.Application {
  const { config, ...deps } = overrides;
  const app = createApp({
    storage,
    clock,
    hasher: nodeSecretHasher,
    passwordHasher: testPasswordHasher,
    logger: silentLogger,
    config: testConfig(config),
    ...deps,
  });
  checkResponsesAgainstDocument(app);
  return app;
}

export interface TestContext {
  /** The test database; `url` names it, for a second connection. */
  storage: Storage & { url: string };
  clock: FixedClock;
  app: express.Application;
  /**
   * The app listening on a loopback port for the whole file: `request(t.server)` reuses it,
   * where `request(t.server)` would open and close a server of its own for every request.
   */
  server: Server;
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
    context.server = await listenOnLoopback(context.app);
    context.flushRequestLog = () => requestLogOf(context.app).flush();
  });
  afterAll(async () => {
    if (context.server) await closeServer(context.server);
    await context.flushRequestLog?.();
    await context.storage?.close();
  });
  return context;
}

/** An HTTP server for `app` on 127.0.0.1 and a free port, listening when the promise resolves. */
export function listenOnLoopback(app: express.Application): Promise<Server> {
  const server = createServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Closes the server and any connection a test left open. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
