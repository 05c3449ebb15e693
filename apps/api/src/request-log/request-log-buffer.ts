import { Logger } from 'pino';
import { RequestLogEntry, UnitOfWork, recordRequests } from '@brand/core';

/** Entries written in one transaction at most; a full batch is written at once instead of waiting. */
export const REQUEST_LOG_BATCH_SIZE = 500;

/**
 * Keeps authenticated requests in memory for a moment and writes them to the request log in
 * batches, so that recording costs a request no database round trip. A timer runs only while
 * entries wait, so an idle app holds no timer (and tests exit cleanly).
 */
export class RequestLogBuffer {
  private pending: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { uow: UnitOfWork; logger: Logger; flushMs: number }) {}

  add(entry: RequestLogEntry): void {
    this.pending.push(entry);
    if (this.pending.length >= REQUEST_LOG_BATCH_SIZE) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.deps.flushMs);
      this.timer.unref();
    }
  }

  /** Writes everything added so far; resolves once it is stored (or, on failure, logged and dropped). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    // Batches are written one after another so that a flush resolves only after earlier ones.
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: RequestLogEntry[]): Promise<void> {
    for (let start = 0; start < batch.length; start += REQUEST_LOG_BATCH_SIZE) {
      const slice = batch.slice(start, start + REQUEST_LOG_BATCH_SIZE);
      try {
        await recordRequests({ uow: this.deps.uow }, slice);
      } catch (error) {
        // The request log is an audit aid, not a ledger: losing a batch must not fail or stall requests.
        this.deps.logger.error(
          { err: error, entries: slice.length },
          'could not write the request log; entries dropped',
        );
      }
    }
  }
}
