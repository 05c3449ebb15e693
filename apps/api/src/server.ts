import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AddressInfo } from 'node:net';
import { Server, createServer } from 'node:http';
import { Logger } from 'pino';
import { systemClock } from '@brand/core';
import { Storage, openStorage, parseDatabaseUrl } from '@brand/persistence-kysely';
import { startHousekeeping } from './infrastructure/housekeeping';
import { startWebhookDispatcherFor } from './infrastructure/webhook-services';
import { startBulkRunner } from './bulk/bulk-runner';
import { imageServicesFrom } from './infrastructure/image-services';
import { createApp, requestLogOf } from './app';
import { seedDemoIfEmpty } from './cli/demo';
import { runCluster } from './cluster';
import { AppConfig, loadConfig } from './config';
import { loggableError } from './http/error-handler';
import { isHealthProbe, requestsInTurn } from './http/requests-in-turn';
import { nodePasswordHasher } from './infrastructure/node-password-hasher';
import { nodeSecretHasher } from './infrastructure/node-secret-hasher';
import { serverLogger } from './infrastructure/server-logger';
import { ApiMetrics } from './metrics/api-metrics';
import { answerScrapesOfPrimary } from './metrics/cluster-metrics';
import { listenForScrapes } from './metrics/metrics-listener';
import { queueDepthsOf } from './metrics/queue-depths';
import { tracingFor } from './tracing/load-tracing';
import { Tracing } from './tracing/tracing';

/** How long in-flight requests get to finish after SIGTERM/SIGINT before the process gives up on them. */
const SHUTDOWN_GRACE_MS = 10_000;

/** A SQLite file's folder (./data by default) is created on first start; Postgres and :memory: need nothing. */
function ensureDatabaseFolder(databaseUrl: string): void {
  const { dialect, location } = parseDatabaseUrl(databaseUrl);
  if (dialect === 'sqlite' && location !== ':memory:') mkdirSync(dirname(location), { recursive: true });
}

/**
 * Opens the configured database (creating a SQLite file's folder first); a lost connection is
 * logged. The metrics count its retries and events, the tracing spans its statements.
 */
async function openServerStorage(
  config: AppConfig,
  logger: Logger,
  metrics?: ApiMetrics,
  tracing?: Tracing,
): Promise<Storage> {
  ensureDatabaseFolder(config.databaseUrl);
  const observer = {
    ...metrics?.storageObserver(),
    ...tracing?.storageObserver(parseDatabaseUrl(config.databaseUrl).dialect),
  };
  return openStorage(config.databaseUrl, {
    // A lost connection is survived (its requests answer 503, the pool connects anew); it is still worth a line.
    onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost'),
    ...(metrics || tracing ? { observer } : {}),
  });
}

/** The process's metrics when `METRICS_PORT` is set; none otherwise, and nothing is counted. */
function metricsFor(config: AppConfig): ApiMetrics | undefined {
  return config.metricsPort === null ? undefined : new ApiMetrics();
}

/** What a start does once, however many processes then serve: migrate, and seed an empty database. */
async function migrateAndSeed(storage: Storage, config: AppConfig, logger: Logger): Promise<void> {
  await storage.migrate();
  if (await storage.bypassesRowSecurity())
    logger.warn(
      'the database role is a superuser or BYPASSRLS: row-level security does not bind it, so only the queries keep brands apart; connect as a role that is neither (README, Configuration)',
    );
  // First start: an empty database gets a demo brand and a ready curl line (owned by the CLI's demo module).
  // The lines are printed plainly rather than as JSON log records, because they are meant for a person.
  await seedDemoIfEmpty({
    storage,
    clock: systemClock,
    hasher: nodeSecretHasher,
    passwordHasher: nodePasswordHasher,
    log: (line) => process.stdout.write(`${line}\n`),
    baseUrl: `http://localhost:${config.port}`,
  });
}

/**
 * Starts the API in this one process: reads the environment, opens and migrates the database,
 * seeds the demo brand into an empty database, listens on PORT, and shuts down gracefully on
 * SIGTERM/SIGINT (stop accepting connections, let in-flight requests finish, write the buffered
 * request log, close the database, exit 0).
 */
export async function startServer(env: NodeJS.ProcessEnv = process.env): Promise<Server> {
  const config = loadConfig(env);
  const logger = serverLogger(config.logLevel);
  const metrics = metricsFor(config);
  const tracing = tracingFor(config.tracing);
  const storage = await openServerStorage(config, logger, metrics, tracing);
  await migrateAndSeed(storage, config, logger);
  const scrapes =
    metrics && config.metricsPort !== null
      ? await listenForScrapes(config.metricsPort, () => metrics.registry.metrics(), logger)
      : undefined;
  return serve(storage, config, logger, { metrics, tracing, scrapes });
}

/**
 * The primary's one-time step before it forks workers (see cluster.ts): migrate and seed on a
 * connection of its own, closed again, so that N workers do not race to migrate or seed.
 */
export async function prepareDatabase(config: AppConfig, logger: Logger): Promise<void> {
  const storage = await openServerStorage(config, logger);
  try {
    await migrateAndSeed(storage, config, logger);
  } finally {
    await storage.close();
  }
}

/** A cluster worker: the primary has migrated and seeded, so it only opens the database and serves, like startServer. */
export async function startWorker(env: NodeJS.ProcessEnv = process.env): Promise<Server> {
  const config = loadConfig(env);
  const logger = serverLogger(config.logLevel);
  // The primary serves METRICS_PORT for the whole machine and asks each worker for its registry.
  const metrics = metricsFor(config);
  if (metrics) answerScrapesOfPrimary(metrics.registry);
  // Each worker traces its own requests; the primary serves none.
  const tracing = tracingFor(config.tracing);
  return serve(await openServerStorage(config, logger, metrics, tracing), config, logger, { metrics, tracing });
}

/** Listens on PORT with the app over `storage` and shuts down gracefully on SIGTERM/SIGINT. */
async function serve(
  storage: Storage,
  config: AppConfig,
  logger: Logger,
  { metrics, tracing, scrapes }: { metrics?: ApiMetrics | undefined; tracing?: Tracing | undefined; scrapes?: Server },
): Promise<Server> {
  metrics?.watchQueues(queueDepthsOf(storage.uow, { logger }));
  const app = createApp({
    storage,
    clock: systemClock,
    hasher: nodeSecretHasher,
    logger,
    config,
    ...(metrics ? { metrics } : {}),
    ...(tracing ? { tracing } : {}),
  });
  const server = createServer(requestsInTurn(app, { immediately: isHealthProbe })).listen(config.port);
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // The bound port, not PORT: with PORT=0 the kernel picks it, and this line is how a supervisor
  // (or a test that starts the process) learns it.
  const { port } = server.address() as AddressInfo;
  logger.info({ port, database: storage.dialect, maintenance: config.maintenanceMode }, 'API listening');
  const stopHousekeeping = startHousekeeping({
    uow: storage.uow,
    clock: systemClock,
    logger,
    requestLogRetentionDays: config.requestLogRetentionDays,
  });
  const dispatcher = startWebhookDispatcherFor(
    storage,
    config,
    logger,
    metrics ? (pass) => metrics.webhookOutcomes(pass) : undefined,
  );
  const bulkRunner = startBulkRunner({
    storage,
    clock: systemClock,
    images: imageServicesFrom(config.images),
    logger,
    leaseMs: config.bulk.leaseMs,
  });

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    stopHousekeeping();
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const forced = setTimeout(() => {
      logger.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    // close() stops accepting, closes the connections idle right now, and calls back once every
    // other connection has ended. A connection whose request is still in flight would stay open
    // after its answer for the keep-alive timeout (and Node's extra second), holding the exit
    // back by that long, past the grace period when the timeout is longer. From now on a
    // connection is closed as soon as it is idle.
    server.keepAliveTimeout = 1;
    server.keepAliveTimeoutBuffer = 0;
    scrapes?.close();
    server.close(() => {
      void (async () => {
        try {
          await dispatcher.stop();
          await bulkRunner.stop();
          await requestLogOf(app).flush();
          await storage.close();
          // The spans of the last requests, before the process ends.
          await tracing?.shutdown();
          logger.info('stopped');
          process.exit(0);
        } catch (error) {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        }
      })();
    });
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  // A promise nobody awaited that failed (a library's background work, a fire-and-forget write):
  // by default Node ends the process, taking every in-flight request with it. It is a bug to log
  // loudly, not a reason to drop the requests of every other integrator.
  process.on('unhandledRejection', (reason) =>
    logger.error({ err: loggableError(reason) }, 'unhandled promise rejection'),
  );
  return server;
}

/** One process, a cluster worker, or the primary forking `WEB_CONCURRENCY` workers that run this same file. */
async function main(): Promise<void> {
  if (cluster.isWorker) {
    await startWorker();
    return;
  }
  const config = loadConfig(process.env);
  if (config.workers === 1) {
    await startServer();
    return;
  }
  const logger = serverLogger(config.logLevel);
  await runCluster({
    workers: config.workers,
    metricsPort: config.metricsPort,
    logger,
    prepare: () => prepareDatabase(config, logger),
    shutdownGraceMs: SHUTDOWN_GRACE_MS,
  });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    // The logger may not exist yet (a bad setting), so this goes straight to stderr.
    process.stderr.write(
      `The API could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
