import { Repositories } from '../shared/unit-of-work.ports';
import { ALL_EVENTS, WebhookDelivery } from '../webhooks/webhook.entities';
import { DomainEvent, NewDomainEvent } from './event.entities';

/**
 * Writes events into the outbox inside the caller's transaction (`tx`), numbered in the order
 * given, all at one instant, and a pending delivery of each to every enabled webhook endpoint of
 * the brand subscribed to its type (due at once). Call it after the change it announces is saved,
 * with the objects as saved: events and deliveries commit or roll back with the change.
 */
export async function recordEvents(
  tx: Pick<Repositories, 'ids' | 'events' | 'webhookEndpoints' | 'webhookDeliveries'>,
  brandId: number,
  at: string,
  events: NewDomainEvent[],
): Promise<DomainEvent[]> {
  if (events.length === 0) return [];
  const ids = await tx.ids.next('events', events.length);
  const numbered = events.map((e, i) => ({ ...e, id: ids[i]!, brandId, createdAt: at }));
  await tx.events.append(numbered);

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
