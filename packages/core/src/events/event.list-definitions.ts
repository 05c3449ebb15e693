import { ListDefinition } from '../listing/list-query';
import { DomainEvent } from './event.entities';

/**
 * `GET /v10/events`: oldest first by default, so an integration that polls walks the feed
 * forward with its cursor; sorted by id descending it reads the newest first.
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
};
