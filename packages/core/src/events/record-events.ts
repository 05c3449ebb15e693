import { timelineOfEvents } from '../documents/timeline-from-events';
import { TransactionEnd } from '../shared/transaction-end.ports';
import { Repositories } from '../shared/unit-of-work.ports';
import { ALL_EVENTS, WebhookDelivery } from '../webhooks/webhook.entities';
import { DocumentEventType, DomainEvent, EmittedEventType, NewDomainEvent } from './event.entities';

/** The repositories the outbox and its webhook deliveries are written to. */
type OutboxRepositories = 'ids' | 'events' | 'webhookEndpoints' | 'webhookDeliveries' | 'transaction';

/** Events a transaction recorded for one brand, waiting for its commit to be numbered and written. */
interface Recorded {
  brandId: number;
  at: string;
  events: NewDomainEvent[];
}

/** What each open transaction recorded so far, by its end: written by one step as it commits. */
const recordedBy = new WeakMap<TransactionEnd, Recorded[]>();

/**
 * Writes events into the outbox inside the caller's transaction (`tx`), stamped `at`, and a
 * pending delivery of each to every enabled webhook endpoint of the brand subscribed to its type
 * (due at once). Call it after the change it announces is saved, with the objects as saved:
 * events and deliveries commit or roll back with the change.
 *
 * The events are numbered and written as the transaction commits (`tx.transaction`), not now:
 * every event a transaction recorded, in the order recorded, takes its id under a lock on the
 * brand's feed held until COMMIT (`EventRepository.nextFeedIds`). The ids of a brand's events
 * therefore follow the order in which its transactions commit, and a poller that resumes after
 * the last id it saw never misses an event that committed later with a lower id (DESIGN §10,
 * "the feed never skips"). Taking the lock last keeps it short and free of deadlocks: nothing
 * is locked after it.
 *
 * The timeline is one consumer of the events: each event of a document (`DocumentEventType`)
 * also appends that document's timeline entry of the change (`timelineOfEvents`), now, at the same
 * instant, with the note and user the event carries, in the order given. A use case therefore
 * writes by hand only the timeline entries no event announces, before or after this call as the
 * entries of one document must read. Events of no document (inventory, customers, products,
 * alerts) write no timeline entry, and recording only those needs no timeline repository.
 */
export async function recordEvents(
  tx: Pick<Repositories, OutboxRepositories>,
  brandId: number,
  at: string,
  events: NewDomainEvent<Exclude<EmittedEventType, DocumentEventType>>[],
): Promise<void>;
/** Events of documents among them: their timeline entries are written too (`tx.timeline`). */
export async function recordEvents(
  tx: Pick<Repositories, OutboxRepositories | 'timeline'>,
  brandId: number,
  at: string,
  events: NewDomainEvent[],
): Promise<void>;
export async function recordEvents(
  tx: Pick<Repositories, OutboxRepositories> & Partial<Pick<Repositories, 'timeline'>>,
  brandId: number,
  at: string,
  events: NewDomainEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const entries = timelineOfEvents(brandId, at, events);
  // Entries exist only for events of documents, which the second overload types with a timeline.
  if (entries.length > 0) await tx.timeline!.append(entries);

  const recorded = recordedBy.get(tx.transaction);
  if (recorded) {
    recorded.push({ brandId, at, events });
    return;
  }
  const first: Recorded[] = [{ brandId, at, events }];
  recordedBy.set(tx.transaction, first);
  tx.transaction.beforeCommit(() => writeOutbox(tx, first));
}

/**
 * The commit step of a transaction's events: per brand (one, but for work that spans brands by
 * design), the subscribed endpoints and delivery ids first, then, under the brand's feed lock,
 * the event ids, the events and their deliveries. What runs under the lock is kept to those
 * writes, since the brand's event-writing transactions queue for it until COMMIT.
 */
async function writeOutbox(tx: Pick<Repositories, OutboxRepositories>, recorded: Recorded[]): Promise<void> {
  // Brands in id order: two transactions that span the same brands lock their feeds alike.
  for (const brandId of [...new Set(recorded.map((r) => r.brandId))].sort((a, b) => a - b)) {
    const events = recorded
      .filter((r) => r.brandId === brandId)
      .flatMap((batch) => batch.events.map((event) => ({ type: event.type, object: event.object, at: batch.at })));
    const endpoints = await tx.webhookEndpoints.findEnabled(brandId);
    const subscribers = events.map(({ type }) =>
      endpoints.filter((endpoint) => endpoint.events.includes(ALL_EVENTS) || endpoint.events.includes(type)),
    );
    const deliveryCount = subscribers.reduce((sum, s) => sum + s.length, 0);
    const deliveryIds = deliveryCount > 0 ? await tx.ids.next('webhook_deliveries', deliveryCount) : [];

    const ids = await tx.events.nextFeedIds(brandId, events.length);
    // The timeline note stays out of the outbox: an event is its type and object.
    const numbered = events.map(
      (e, i) => ({ type: e.type, object: e.object, id: ids[i]!, brandId, createdAt: e.at }) as DomainEvent,
    );
    await tx.events.append(numbered);
    if (deliveryCount === 0) continue;
    let next = 0;
    const deliveries: WebhookDelivery[] = numbered.flatMap((event, i) =>
      subscribers[i]!.map((endpoint) => ({
        id: deliveryIds[next++]!,
        brandId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        status: 'pending' as const,
        attempts: 0,
        lastStatusCode: null,
        lastError: null,
        nextAttemptAt: event.createdAt,
        createdAt: event.createdAt,
        updatedAt: event.createdAt,
      })),
    );
    await tx.webhookDeliveries.insert(deliveries);
  }
}
