import { ListDefinition } from '../listing/list-query';
import { DomainEvent } from './event.entities';

/** How an event's id is shown (`evt_` and its number), in the feed, on its GET and as a delivery's `webhook-id`. */
export const EVENT_ID_PREFIX = 'evt_';

/**
 * `GET /v10/events`: oldest first by default, so an integration that polls walks the feed
 * forward with its cursor or `starting_after`; sorted by id descending it reads the newest first.
 * Ids follow the order in which the brand's transactions committed (`recordEvents`), so the feed
 * only ever grows at its end: resuming after the last id seen never skips an event.
 */
export const eventListDefinition: ListDefinition<DomainEvent> = {
  resource: 'events',
  fields: {
    id: { type: 'integer', get: (e) => e.id },
    type: { type: 'string', get: (e) => e.type },
    created_at: { type: 'datetime', get: (e) => e.createdAt },
  },
  sortKeys: ['id'],
  filterKeys: ['type', 'created_at'],
  includes: [],
  // A poller resumes with `starting_after` = the last event's id as the feed showed it.
  idPrefix: EVENT_ID_PREFIX,
};
