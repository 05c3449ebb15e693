import { Repositories } from '../shared/unit-of-work.ports';
import { DomainEvent, NewDomainEvent } from './event.entities';

/**
 * Writes events into the outbox inside the caller's transaction (`tx`), numbered in the order
 * given, all at one instant. Call it after the change it announces is saved, with the objects
 * as saved.
 */
export async function recordEvents(
  tx: Pick<Repositories, 'ids' | 'events'>,
  brandId: number,
  at: string,
  events: NewDomainEvent[],
): Promise<DomainEvent[]> {
  if (events.length === 0) return [];
  const ids = await tx.ids.next('events', events.length);
  const numbered = events.map((e, i) => ({ ...e, id: ids[i]!, brandId, createdAt: at }));
  await tx.events.append(numbered);
  return numbered;
}
