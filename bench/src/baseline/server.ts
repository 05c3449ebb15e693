/**
 * The raw-SQL baseline of issue 15: Express 5 and better-sqlite3 prepared statements, no Kysely
 * and no @brand/core use cases, serving GET /v10/customers and POST
 * /v10/order-channels/:publicId/orders with the project's wire behaviour on the project's
 * migrated SQLite database. The bench starts it like bench-server.js and compares the two.
 * Reads DATABASE_URL, PORT, RATE_LIMIT_MAX, RATE_LIMIT_WINDOW_MS, LOG_LEVEL and
 * REQUEST_LOG_FLUSH_MS with the project's defaults (apps/api/src/config.ts), and BASELINE_CONTRACT
 * (`same`, the default: the project's revocation and shared rate-limit rules; `legacy`: the first
 * baseline's 2 s token trust and in-memory rate limits).
 */
import { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import pino from 'pino';
import { SERVER_LOG_DESTINATION } from '@brand/api';
import { createBaselineApp } from './app';
import { contractOf } from './auth';
import { openDatabase } from './database';
import { RequestLogBuffer } from './request-log';

function setting(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number; got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function main(): void {
  const db = openDatabase(process.env['DATABASE_URL'] ?? './data/brand.sqlite');
  // Written as the project's server writes its log (in blocks), so both pay the same for it.
  const logger = pino(
    { level: process.env['LOG_LEVEL']?.trim().toLowerCase() || 'info' },
    pino.destination({ ...SERVER_LOG_DESTINATION }),
  );
  const requestLog = new RequestLogBuffer(db, logger, setting('REQUEST_LOG_FLUSH_MS', 200));
  const app = createBaselineApp({
    db,
    contract: contractOf(process.env),
    logger,
    requestLog,
    rateLimit: { max: setting('RATE_LIMIT_MAX', 600), windowMs: setting('RATE_LIMIT_WINDOW_MS', 60_000) },
    bodyLimit: '1mb',
  });
  const server = createServer(app);
  server.listen(setting('PORT', 3000), '127.0.0.1', () =>
    process.send?.({ ready: true, port: (server.address() as AddressInfo).port }),
  );
  process.on('SIGTERM', () =>
    server.close(() => {
      requestLog.flush();
      db.close();
      process.exit(0);
    }),
  );
}

main();
