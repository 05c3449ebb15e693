import { ListQuery, ListRows } from '../listing/list-query';
import { DomainEvent } from './event.entities';

/**
 * The outbox and the events feed: events are appended by the use cases inside their unit of
 * work, so they commit or roll back with the change they announce.
 */
export interface EventRepository {
  /**
   * `count` fresh ids for events of the brand (from `IdGenerator`, kind `events`), drawn after
   * locking the brand's feed until the transaction ends: a concurrent transaction of the brand
   * waits here until this one has committed or rolled back, so its ids are higher than every id
   * this one wrote and a brand's event ids follow the order of its commits. Only the outbox's
   * commit step calls it (`recordEvents`), as the last lock its transaction takes.
   */
  nextFeedIds(brandId: number, count: number): Promise<number[]>;
  /** Stores numbered events (ids from `nextFeedIds`). */
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
