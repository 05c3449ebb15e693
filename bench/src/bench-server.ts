/**
 * The API as the benchmark runs it: the real app (auth, rate limit, request log, JSON logs) plus
 * a bare `/hello` answered by the same process, so the ratio between the two shows what the
 * platform adds on top of Node's HTTP server. Reads DATABASE_URL and PORT, and METRICS_PORT as
 * the server does (metrics counted and served on a listener of their own; none when unset).
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { systemClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import {
  ApiMetrics,
  createApp,
  isHealthProbe,
  requestsInTurn,
  listenForScrapes,
  loadConfig,
  nodeSecretHasher,
  serverLogger,
  requestLogOf,
  startWebhookDispatcherFor,
} from '@brand/api';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = serverLogger(config.logLevel);
  const metrics = config.metricsPort === null ? undefined : new ApiMetrics();
  const storage = await openStorage(config.databaseUrl, metrics ? { observer: metrics.storageObserver() } : {});
  await storage.migrate();
  const app = createApp({
    storage,
    clock: systemClock,
    hasher: nodeSecretHasher,
    logger,
    config,
    ...(metrics ? { metrics } : {}),
  });
  if (metrics && config.metricsPort !== null)
    await listenForScrapes(config.metricsPort, () => metrics.registry.metrics(), logger);
  // In turn, as the server takes them (apps/api/src/http/requests-in-turn.ts), the bare route too.
  const server = createServer(
    requestsInTurn(
      (req, res) => {
        if (req.url === '/hello') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"hello":"world"}');
          return;
        }
        app(req, res);
      },
      { immediately: isHealthProbe },
    ),
  );
  // Like the real server: this process delivers webhooks too.
  const dispatcher = startWebhookDispatcherFor(storage, config, logger);
  // PORT=0 takes a free port; the bound one is reported with readiness.
  server.listen(config.port, '127.0.0.1', () =>
    process.send?.({ ready: true, port: (server.address() as AddressInfo).port }),
  );
  // Like the real server: the buffered request log is written before the database closes.
  process.on('SIGTERM', () =>
    server.close(
      () =>
        void dispatcher
          .stop()
          .then(() => requestLogOf(app).flush())
          .then(() => storage.close())
          .then(() => process.exit(0)),
    ),
  );
}

void main();
