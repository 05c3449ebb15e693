import { Clock } from '../shared/clock.ports';
import { deleteInBatches } from '../shared/delete-in-batches';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/** How long events stay in the feed: DESIGN §10 asks for at least 30 days. */
export const EVENT_RETENTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the events older than the retention (every brand's), and their webhook deliveries
 * (made at the same instant, so deleted first), answering how many events went. It deletes in
 * short batches, each in a transaction of its own, like the other housekeeping jobs, so a large
 * backlog never holds the database for long. Every API process runs it now and then; running it
 * twice at once only finds less to delete.
 */
export async function pruneEvents(
  deps: { uow: UnitOfWork<Pick<Repositories, 'events' | 'webhookDeliveries'>>; clock: Clock },
  input: { retentionDays?: number } = {},
): Promise<number> {
  const before = new Date(Date.parse(deps.clock.now()) - (input.retentionDays ?? EVENT_RETENTION_DAYS) * DAY_MS);
  const cutoff = before.toISOString();
  await deleteInBatches(deps.uow, (tx, limit) => tx.webhookDeliveries.deleteCreatedBefore(cutoff, limit));
  return deleteInBatches(deps.uow, (tx, limit) => tx.events.deleteCreatedBefore(cutoff, limit));
}
