import { ListQuery, ListRows } from '../listing/list-query';
import { DomainEvent } from './event.entities';

/**
 * The outbox and the events feed: events are appended by the use cases inside their unit of
 * work, so they commit or roll back with the change they announce.
 */
export interface EventRepository {
  /** Stores numbered events (ids from `IdGenerator`, kind `events`). */
  append(events: DomainEvent[]): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<DomainEvent[]>;
  /** A page of the brand's events, keys of `eventListDefinition`. */
  list(brandId: number, query: ListQuery): Promise<ListRows<DomainEvent>>;
  /** Deletes at most `limit` events of any brand created before `before` (retention); answers how many went. */
  deleteCreatedBefore(before: string, limit: number): Promise<number>;
}

/** The events module's repositories; the declaration below adds them to `Repositories`. */
export interface EventRepositories {
  events: EventRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends EventRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The events module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    events: true;
  }
}
