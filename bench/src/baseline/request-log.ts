import { RequestHandler } from 'express';
import { Logger } from 'pino';
import { principalOf } from './auth';
import { Sqlite, idCounter } from './database';

/** Entries written in one transaction at most (the project's REQUEST_LOG_BATCH_SIZE). */
const BATCH_SIZE = 500;

export interface Entry {
  brandId: number;
  userId: number;
  appId: number;
  tokenId: number;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  createdAt: string;
}

/**
 * Authenticated requests kept in memory and written to `request_logs` every `flushMs` (or at
 * once when a batch is full), one transaction per batch with ids from `id_counters`, as
 * apps/api/src/request-log/request-log-buffer.ts does. A failed batch is logged and dropped.
 */
export class RequestLogBuffer {
  private pending: Entry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly writeBatch: (batch: Entry[]) => void;

  constructor(
    db: Sqlite,
    private readonly logger: Logger,
    private readonly flushMs: number,
  ) {
    const nextIds = idCounter(db);
    const insert = db.prepare(
      'insert into request_logs (id, brand_id, user_id, app_id, token_id, method, path, status, duration_ms, request_id, created_at) ' +
        'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const write = db.transaction((batch: Entry[]) => {
      const ids = nextIds('request_logs', batch.length);
      batch.forEach((e, i) =>
        insert.run(
          ids[i],
          e.brandId,
          e.userId,
          e.appId,
          e.tokenId,
          e.method,
          e.path,
          e.status,
          e.durationMs,
          e.requestId,
          e.createdAt,
        ),
      );
    });
    this.writeBatch = (batch) => write.immediate(batch);
  }

  add(entry: Entry): void {
    this.pending.push(entry);
    if (this.pending.length >= BATCH_SIZE) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    for (let start = 0; start < batch.length; start += BATCH_SIZE) {
      const slice = batch.slice(start, start + BATCH_SIZE);
      try {
        this.writeBatch(slice);
      } catch (error) {
        this.logger.error({ err: error, entries: slice.length }, 'could not write the request log; entries dropped');
      }
    }
  }
}

/** Records an authenticated request once its response is sent; the path without its query (which may hold the token). */
export function recordRequest(buffer: { add(entry: Entry): void }): RequestHandler {
  return (req, res, next) => {
    const principal = principalOf(res);
    if (!principal) {
      next();
      return;
    }
    const startedAt = performance.now();
    const createdAt = new Date().toISOString();
    res.once('finish', () => {
      buffer.add({
        brandId: principal.brandId,
        userId: principal.userId,
        appId: principal.appId,
        tokenId: principal.tokenId,
        method: req.method,
        path: req.originalUrl.split('?')[0] ?? req.originalUrl,
        status: res.statusCode,
        durationMs: Math.round(performance.now() - startedAt),
        requestId: res.locals['requestId'] as string,
        createdAt,
      });
    });
    next();
  };
}
