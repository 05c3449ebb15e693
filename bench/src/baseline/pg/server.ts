/**
 * The raw-SQL baseline on Postgres: the SQLite baseline's same contract (../app.ts in its `same`
 * mode) as Express 5 and pg named statements on the project's migrated Postgres database,
 * connected as the project's app role (row-level security binds it as it binds the project).
 * `WEB_CONCURRENCY` processes as a node:cluster (the primary forks them and serves nothing), as
 * the project's server runs. Reads DATABASE_URL, PORT, WEB_CONCURRENCY, DATABASE_POOL_SIZE,
 * RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS, LOG_LEVEL and REQUEST_LOG_FLUSH_MS with the project's
 * defaults (apps/api/src/config.ts); tells its parent the port once every worker listens.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { SERVER_LOG_DESTINATION } from '@brand/api';
import { JSON_TYPES, requireJsonContentType } from '../app';
import { authenticate, requireScopes } from '../auth';
import { errorHandler, httpErrors } from '../http-errors';
import { limitRequestsPerToken } from '../rate-limit';
import { recordRequest } from '../request-log';
import { requestLogging } from '../request-logging';
import { PgDatabase } from './database';
import { pgCreateOrder } from './orders';
import { PgRequestLogBuffer, pgCounters, pgCursorCodec, pgListCustomers, pgTokenVerifier } from './pipeline';

function setting(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number; got ${JSON.stringify(raw)}`);
  return Number(raw);
}

const BODY_LIMIT = '1mb';

/** One serving process: the app of ../app.ts, its steps on Postgres. */
async function serve(): Promise<void> {
  const url = process.env['DATABASE_URL'] ?? '';
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('the Postgres baseline needs a postgres:// DATABASE_URL');
  const db = new PgDatabase(url, setting('DATABASE_POOL_SIZE', 10));
  // Written as the project's server writes its log (in blocks), so both pay the same for it.
  const logger = pino(
    { level: process.env['LOG_LEVEL']?.trim().toLowerCase() || 'info' },
    pino.destination({ ...SERVER_LOG_DESTINATION }),
  );
  const requestLog = new PgRequestLogBuffer(db, logger, setting('REQUEST_LOG_FLUSH_MS', 200));
  const rateLimit = { max: setting('RATE_LIMIT_MAX', 600), windowMs: setting('RATE_LIMIT_WINDOW_MS', 60_000) };
  const cursors = await pgCursorCodec(db);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  app.set('query parser', 'extended');
  app.use(requestLogging(logger));
  app.use(
    '/v10',
    authenticate(pgTokenVerifier(db)),
    recordRequest(requestLog),
    limitRequestsPerToken({ ...rateLimit, count: pgCounters(db, rateLimit.max, rateLimit.windowMs) }),
    requireJsonContentType,
  );
  app.get('/v10/customers', requireScopes('customers:read'), pgListCustomers(db, cursors));
  app.post(
    '/v10/order-channels/:publicId/orders',
    requireScopes('orders:write'),
    express.json({ limit: BODY_LIMIT, strict: true, type: JSON_TYPES }),
    pgCreateOrder(db),
  );
  app.use((req) => {
    throw httpErrors.routeNotFound(req.method, req.path);
  });
  app.use(errorHandler(BODY_LIMIT));

  const server = createServer(app);
  server.listen(setting('PORT', 3000), '127.0.0.1', () => {
    const port = (server.address() as AddressInfo).port;
    if (cluster.isWorker) process.send?.({ listening: true, port });
    else process.send?.({ ready: true, port });
  });
  process.on('SIGTERM', () =>
    server.close(() => {
      void requestLog
        .flush()
        .then(() => db.end())
        .then(() => process.exit(0));
    }),
  );
}

/** The primary: forks the workers, reports the shared port once all listen, and stops them on SIGTERM. */
function primary(workers: number): void {
  let listening = 0;
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork();
    worker.on('message', (message: { listening?: boolean; port?: number }) => {
      if (message.listening && ++listening === workers) process.send?.({ ready: true, port: message.port });
    });
  }
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  });
  cluster.on('exit', () => {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
}

const workers = setting('WEB_CONCURRENCY', 1);
if (cluster.isPrimary && workers > 1) primary(workers);
else
  serve().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
