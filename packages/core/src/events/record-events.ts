import { timelineOfEvents } from '../documents/timeline-from-events';
import { Repositories } from '../shared/unit-of-work.ports';
import { ALL_EVENTS, WebhookDelivery } from '../webhooks/webhook.entities';
import { DocumentEventType, DomainEvent, EmittedEventType, NewDomainEvent } from './event.entities';

/** The repositories the outbox and its webhook deliveries are written to. */
type OutboxRepositories = 'ids' | 'events' | 'webhookEndpoints' | 'webhookDeliveries';

/**
 * Writes events into the outbox inside the caller's transaction (`tx`), numbered in the order
 * given, all at one instant, and a pending delivery of each to every enabled webhook endpoint of
 * the brand subscribed to its type (due at once). Call it after the change it announces is saved,
 * with the objects as saved: events and deliveries commit or roll back with the change.
 *
 * The timeline is one consumer of the events: each event of a document (`DocumentEventType`)
 * also appends that document's timeline entry of the change (`timelineOfEvents`), at the same
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
): Promise<DomainEvent[]>;
/** Events of documents among them: their timeline entries are written too (`tx.timeline`). */
export async function recordEvents(
  tx: Pick<Repositories, OutboxRepositories | 'timeline'>,
  brandId: number,
  at: string,
  events: NewDomainEvent[],
): Promise<DomainEvent[]>;
export async function recordEvents(
  tx: Pick<Repositories, OutboxRepositories> & Partial<Pick<Repositories, 'timeline'>>,
  brandId: number,
  at: string,
  events: NewDomainEvent[],
): Promise<DomainEvent[]> {
  if (events.length === 0) return [];
  const ids = await tx.ids.next('events', events.length);
  // The timeline note stays out of the outbox: an event is its type and object.
  const numbered = events.map(
    (e, i) => ({ type: e.type, object: e.object, id: ids[i]!, brandId, createdAt: at }) as DomainEvent,
  );
  await tx.events.append(numbered);
  const entries = timelineOfEvents(brandId, at, events);
  // Entries exist only for events of documents, which the second overload types with a timeline.
  if (entries.length > 0) await tx.timeline!.append(entries);

  const endpoints = await tx.webhookEndpoints.findEnabled(brandId);
  const wanted = numbered.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpoint.events.includes(ALL_EVENTS) || endpoint.events.includes(event.type))
      .map((endpoint) => ({ event, endpoint })),
  );
  if (wanted.length > 0) {
    const deliveryIds = await tx.ids.next('webhook_deliveries', wanted.length);
    const deliveries: WebhookDelivery[] = wanted.map(({ event, endpoint }, i) => ({
      id: deliveryIds[i]!,
      brandId,
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    }));
    await tx.webhookDeliveries.insert(deliveries);
  }
  return numbered;
}
