import { UnitOfWork } from './unit-of-work.ports';

/**
 * Rows one housekeeping statement deletes at most: small enough that a batch holds its row locks
 * (Postgres) or SQLite's one writer only briefly, large enough that a backlog of a million rows
 * takes a thousand short transactions rather than one long one.
 */
export const DELETE_BATCH_ROWS = 1000;

/**
 * Runs `deleteBatch` (one bounded delete answering how many rows it removed) in a transaction of
 * its own, again and again until a batch removes fewer than `batchRows`; answers the total.
 * Requests get the database between batches, so a pass over a large backlog never blocks them
 * for long. A batch repeated by the unit of work after a conflict only finds fewer rows.
 */
export async function deleteInBatches<R extends object>(
  uow: UnitOfWork<R>,
  deleteBatch: (tx: R, limit: number) => Promise<number>,
  batchRows = DELETE_BATCH_ROWS,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await uow.run((tx) => deleteBatch(tx, batchRows));
    total += deleted;
    if (deleted < batchRows) return total;
  }
}
