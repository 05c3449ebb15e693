import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/** How long events stay in the feed: DESIGN §10 asks for at least 30 days. */
export const EVENT_RETENTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the events older than the retention (every brand's), and their webhook deliveries
 * (made at the same instant), answering how many events went. Every API process runs it now and
 * then; running it twice at once only deletes nothing the second time.
 */
export async function pruneEvents(
  deps: { uow: UnitOfWork<Pick<Repositories, 'events' | 'webhookDeliveries'>>; clock: Clock },
  input: { retentionDays?: number } = {},
): Promise<number> {
  const before = new Date(Date.parse(deps.clock.now()) - (input.retentionDays ?? EVENT_RETENTION_DAYS) * DAY_MS);
  return deps.uow.run(async (tx) => {
    await tx.webhookDeliveries.deleteCreatedBefore(before.toISOString());
    return tx.events.deleteCreatedBefore(before.toISOString());
  });
}
