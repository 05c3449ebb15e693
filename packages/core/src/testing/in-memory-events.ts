import { DomainEvent } from '../events/event.entities';
import { eventListDefinition } from '../events/event.list-definitions';
import { EventRepositories } from '../events/event.ports';
import { listInMemory } from '../listing/in-memory-list';
import { InMemoryFactories } from './in-memory-factories';
import { removeUpTo } from './in-memory-removal';

/**
 * The outbox in memory, with the semantics every adapter must match (the events contract suite
 * checks them): events come back exactly as appended (the object as it was written), by id
 * ascending; another brand's events are never returned; retention deletes by `createdAt` across
 * brands.
 */
export interface EventsState {
  events: DomainEvent[];
}

export function emptyEventsState(): EventsState {
  return { events: [] };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export const inMemoryEventFactories: InMemoryFactories<EventRepositories, EventsState> = {
  // Transactions here run one at a time, so ids drawn in one already follow the commit order.
  events: (s, bound) => ({
    nextFeedIds: (_brandId, count) => bound.ids.next('events', count),
    async append(events) {
      for (const event of events) {
        if (s().events.some((e) => e.id === event.id)) throw new Error(`event ${event.id} exists already`);
        s().events.push(clone(event));
      }
    },
    async findByIds(brandId, ids) {
      const wanted = new Set(ids);
      return clone(
        s()
          .events.filter((e) => e.brandId === brandId && wanted.has(e.id))
          .sort((a, b) => a.id - b.id),
      );
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        eventListDefinition,
        query,
        s().events.filter((e) => e.brandId === brandId),
      );
      return { rows: clone(rows), total };
    },
    async deleteCreatedBefore(before, limit) {
      return removeUpTo(s().events, (e) => e.createdAt < before, limit).length;
    },
  }),
};
