import { Clock } from '../shared/clock.ports';
import { deleteInBatches } from '../shared/delete-in-batches';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/**
 * How long an upload may stream before it counts as abandoned. An upload that fails or is given
 * up deletes itself; only a process killed while receiving leaves one behind, and no file within
 * `BULK_MAX_BYTES` takes anywhere near this long to arrive.
 */
export const ABANDONED_BULK_UPLOAD_HOURS = 24;

const HOUR_MS = 60 * 60 * 1000;

/**
 * Deletes the uploads that never completed (their process died while receiving: an operation
 * `receiving`, which nothing shows or runs) and began more than `ABANDONED_BULK_UPLOAD_HOURS`
 * ago, every brand's, with their lines; answers how many uploads went. A housekeeping job: in
 * short batches, lines first, each batch a transaction of its own.
 */
export async function sweepAbandonedBulkUploads(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>>; clock: Clock },
  input: { olderThanHours?: number } = {},
): Promise<number> {
  const cutoff = new Date(
    Date.parse(deps.clock.now()) - (input.olderThanHours ?? ABANDONED_BULK_UPLOAD_HOURS) * HOUR_MS,
  ).toISOString();
  await deleteInBatches(deps.uow, (tx, limit) => tx.bulkOperations.deleteAbandonedUploadLines(cutoff, limit));
  return deleteInBatches(deps.uow, (tx, limit) => tx.bulkOperations.deleteAbandonedUploads(cutoff, limit));
}
