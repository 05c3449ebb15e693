import { DomainEvent, EventRepositories, EventRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { EventsTable } from '../../tables/events.tables';
import { selectInChunks, unique } from '../batches';
import { deleteAtMost } from '../bounded-delete';
import { bulkInsert } from '../bulk-insert';
import { Executor, RepositoryFactories } from '../executor';

/** The list keys of `eventListDefinition`. */
const EVENT_COLUMNS: ListColumns = {
  id: { column: 'events.id', type: 'integer' },
  type: { column: 'events.type', type: 'string' },
  created_at: { column: 'events.created_at', type: 'datetime' },
};

const EVENT_LIST = brandTableList('events', EVENT_COLUMNS);

// The object is the core's entity as written; the event's type says which (the union's tag).
const rowToEvent = (r: Selectable<EventsTable>): DomainEvent =>
  ({
    id: Number(r.id),
    brandId: Number(r.brand_id),
    type: r.type,
    object: JSON.parse(r.object) as unknown,
    createdAt: r.created_at,
  }) as DomainEvent;

export function eventRepository(executor: Executor): EventRepository {
  const { db } = executor;
  return {
    async append(events) {
      if (events.length === 0) return;
      await bulkInsert(
        executor,
        'events',
        events.map((e) => ({
          brand_id: e.brandId,
          id: e.id,
          type: e.type,
          object: JSON.stringify(e.object),
          created_at: e.createdAt,
        })),
      );
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('events').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return rows.map(rowToEvent).sort((a, b) => a.id - b.id);
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, EVENT_LIST, brandId, query);
      return { rows: rows.map(rowToEvent), total };
    },
    deleteCreatedBefore: (before, limit) =>
      deleteAtMost(db, 'events', ['brand_id', 'id'], limit, (eb) => eb('created_at', '<', before)),
  };
}

/** The events module's repositories, as the unit of work makes them. */
export const eventRepositoryFactories: RepositoryFactories<EventRepositories> = {
  events: (executor) => eventRepository(executor),
};
