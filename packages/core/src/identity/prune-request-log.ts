import { Clock } from '../shared/clock.ports';
import { deleteInBatches } from '../shared/delete-in-batches';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { REQUEST_LOG_RETENTION_DAYS } from './identity.entities';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the requests recorded more than `retentionDays` ago (every brand's), in batches of
 * `batchRows` each in its own transaction, answering how many went. The log grows with every
 * authenticated request, so every API process runs this now and then; passes of several processes
 * at once only find less to delete.
 * @example const deleted = await pruneRequestLog({ uow, clock }, { retentionDays: 30 });
 */
export async function pruneRequestLog(
  deps: { uow: UnitOfWork<Pick<Repositories, 'requestLogs'>>; clock: Clock },
  input: { retentionDays?: number; batchRows?: number } = {},
): Promise<number> {
  const retentionDays = input.retentionDays ?? REQUEST_LOG_RETENTION_DAYS;
  const before = new Date(Date.parse(deps.clock.now()) - retentionDays * DAY_MS).toISOString();
  return deleteInBatches(deps.uow, (tx, limit) => tx.requestLogs.deleteCreatedBefore(before, limit), input.batchRows);
}
