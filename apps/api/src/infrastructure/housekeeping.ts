import {
  Clock,
  CredentialSweepRepositories,
  Repositories,
  UnitOfWork,
  pruneEvents,
  pruneIdempotencyKeys,
  pruneRequestLog,
  sweepAbandonedBulkUploads,
  sweepExpiredCredentials,
} from '@brand/core';
import { Logger } from 'pino';

/** How often each process runs the housekeeping. */
const PASS_EVERY_MS = 60 * 60 * 1000;
/** The first pass waits this long after the start, so it does not compete with a starting fleet's first requests. */
const FIRST_PASS_AFTER_MS = 60 * 1000;

/** What the housekeeping deletes from. */
export type HousekeepingRepositories = Pick<
  Repositories,
  'events' | 'webhookDeliveries' | 'requestLogs' | 'idempotencyKeys' | 'bulkOperations'
> &
  CredentialSweepRepositories;

/** One job of a pass: what its log lines call it, and a run answering how many rows of each kind it deleted. */
interface HousekeepingJob {
  deleted: string;
  run(): Promise<Record<string, number>>;
}

/**
 * Keeps the tables that grow on their own to their retention: every API process (and `brand
 * worker`), an hour apart, deletes the events past `EVENT_RETENTION_DAYS` with their deliveries,
 * the requests past `requestLogRetentionDays`, the idempotency keys past their 24 hours, the bulk uploads a killed process left half
 * received (`sweepAbandonedBulkUploads`), and the credentials nothing accepts any more
 * (`sweepExpiredCredentials`: ended sessions, codes, grants and tokens, closed throttle windows).
 * Each job deletes in short batches, so a pass never holds the database for long. Several
 * processes doing so at once only find less to delete; a job that fails (the database away) is
 * logged, the others still run, and the next pass tries again; a pass still running when the next
 * is due is not doubled. Answers a function that stops the passes (at shutdown): a job under way
 * finishes its batch, no further job starts.
 */
export function startHousekeeping(deps: {
  uow: UnitOfWork<HousekeepingRepositories>;
  clock: Clock;
  logger: Logger;
  requestLogRetentionDays: number;
  everyMs?: number;
  firstPassAfterMs?: number;
}): () => void {
  const jobs: HousekeepingJob[] = [
    { deleted: 'expired events', run: async () => ({ events: await pruneEvents(deps) }) },
    {
      deleted: 'requests past the request log retention',
      run: async () => ({ requests: await pruneRequestLog(deps, { retentionDays: deps.requestLogRetentionDays }) }),
    },
    {
      deleted: 'idempotency keys past their 24 hours',
      run: async () => ({ idempotencyKeys: await pruneIdempotencyKeys(deps) }),
    },
    {
      deleted: 'abandoned bulk uploads',
      run: async () => ({ bulkUploads: await sweepAbandonedBulkUploads(deps) }),
    },
    {
      deleted: 'expired credentials',
      // Spread into a plain record: the counts' interface has no index signature.
      run: async () => ({
        ...(await sweepExpiredCredentials(deps, { requestLogRetentionDays: deps.requestLogRetentionDays })),
      }),
    },
  ];

  let stopped = false;
  let running = false;
  const pass = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      for (const job of jobs) {
        if (stopped) return;
        try {
          const counts = await job.run();
          if (Object.values(counts).some((count) => count > 0)) deps.logger.info(counts, `${job.deleted} deleted`);
        } catch (error) {
          deps.logger.warn({ err: error }, `deleting ${job.deleted} failed; trying again later`);
        }
      }
    } finally {
      running = false;
    }
  };

  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    void pass();
    interval = setInterval(() => void pass(), deps.everyMs ?? PASS_EVERY_MS);
    interval.unref();
  }, deps.firstPassAfterMs ?? FIRST_PASS_AFTER_MS);
  first.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    if (interval) clearInterval(interval);
  };
}
