import cluster, { Worker } from 'node:cluster';
import { Logger } from 'pino';
import { scrapeEveryWorker } from './metrics/cluster-metrics';
import { listenForScrapes } from './metrics/metrics-listener';

/** The first restart of a crashed worker waits this long; each further crash soon after doubles it. */
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that ran this long before it died did not crash-loop: the next restart waits the first delay again. */
const STABLE_UPTIME_MS = 30_000;
/** Beyond a worker's own shutdown grace: time to write its request log and close its database before it is killed. */
const SHUTDOWN_MARGIN_MS = 5_000;

export interface ClusterOptions {
  /** How many workers to fork (at least 2: one process needs no primary). */
  workers: number;
  /** Where the primary answers Prometheus for every worker (merged); null: no metrics. */
  metricsPort: number | null;
  logger: Logger;
  /** What must happen once before any worker serves (migrations, the demo seed); a failure ends the start. */
  prepare(): Promise<void>;
  /** How long a worker lets in-flight requests finish after SIGTERM before it exits 1 on its own. */
  shutdownGraceMs: number;
}

/**
 * The primary of several API processes on one machine (`node:cluster`). It runs `prepare` once,
 * then forks the workers, which run the primary's own script (server.js): they see
 * `cluster.isWorker`, open the database and listen on the same port, the primary handing each
 * new connection to the next worker in turn. A worker that dies is forked again after a back-off
 * (1 s, doubling while workers keep dying within 30 s of their start, at most 30 s); a worker
 * that dies before all of them first listened means the start failed, and the primary stops.
 * On SIGTERM/SIGINT every worker gets SIGTERM and shuts down gracefully (in-flight requests
 * finish, the request log is written, the database closed); the primary exits 0 once all exited
 * 0, and 1 if one failed or had to be killed.
 */
export async function runCluster(options: ClusterOptions): Promise<void> {
  const { workers, logger } = options;
  await options.prepare();
  const scrapes =
    options.metricsPort === null ? undefined : await listenForScrapes(options.metricsPort, scrapeEveryWorker(), logger);

  let ready = false;
  let stopping = false;
  let failed = false;
  let restartDelayMs = FIRST_RESTART_DELAY_MS;
  const pendingRestarts = new Set<NodeJS.Timeout>();
  // Workers forked and not yet exited, with their start time. (`cluster.workers` may still list a
  // worker that has exited, until its IPC channel is seen closed.)
  const running = new Map<Worker, number>();
  const listening = new Set<Worker>();

  const fork = (): void => {
    const worker = cluster.fork();
    running.set(worker, Date.now());
    logger.info({ worker: worker.process.pid }, 'worker started');
  };

  const stop = (reason: string, failure: boolean): void => {
    if (failure) failed = true;
    if (stopping) return;
    stopping = true;
    scrapes?.close();
    for (const timer of pendingRestarts) clearTimeout(timer);
    pendingRestarts.clear();
    logger.info({ reason, workers: running.size }, 'shutting down: every worker finishes its in-flight requests');
    if (running.size === 0) process.exit(failed ? 1 : 0);
    for (const worker of running.keys()) worker.process.kill('SIGTERM');
    const forced = setTimeout(() => {
      failed = true;
      for (const worker of running.keys()) {
        logger.error({ worker: worker.process.pid }, 'worker did not stop in time; killing it');
        worker.process.kill('SIGKILL');
      }
    }, options.shutdownGraceMs + SHUTDOWN_MARGIN_MS);
    forced.unref();
  };

  cluster.on('listening', (worker, address) => {
    listening.add(worker);
    if (!ready && listening.size === workers) {
      ready = true;
      logger.info({ port: address.port, workers: [...listening].map((w) => w.process.pid) }, 'all workers listening');
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker);
    const uptimeMs = Date.now() - (running.get(worker) ?? 0);
    running.delete(worker);
    if (stopping) {
      if (code !== 0) failed = true;
      logger.info({ worker: worker.process.pid, code, signal }, 'worker stopped');
      if (running.size === 0) {
        logger.info({ failed }, 'stopped');
        process.exit(failed ? 1 : 0);
      }
      return;
    }
    if (!ready) {
      // A worker that cannot start (the port taken, the database unreachable) would fail again at once.
      logger.error({ worker: worker.process.pid, code, signal }, 'a worker died before the API was up; stopping');
      stop('start failed', true);
      return;
    }
    restartDelayMs = uptimeMs >= STABLE_UPTIME_MS ? FIRST_RESTART_DELAY_MS : restartDelayMs;
    logger.error(
      { worker: worker.process.pid, code, signal, restartInMs: restartDelayMs },
      'worker died unexpectedly; starting another',
    );
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer);
      fork();
    }, restartDelayMs);
    pendingRestarts.add(timer);
    restartDelayMs = Math.min(restartDelayMs * 2, MAX_RESTART_DELAY_MS);
  });

  // `on`, not `once`: a second signal must not end the primary before its workers have exited.
  process.on('SIGTERM', () => stop('SIGTERM', false));
  process.on('SIGINT', () => stop('SIGINT', false));

  for (let index = 0; index < workers; index += 1) fork();
}
