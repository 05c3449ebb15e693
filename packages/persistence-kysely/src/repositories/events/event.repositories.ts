import { DomainEvent, EventRepositories, EventRepository, Repositories } from '@brand/core';
import { Selectable, sql } from 'kysely';
import { withinBrand } from '../../brand-session';
import { prepareOnPostgres } from '../../prepared-statements';
import { brandTableList, fetchListPage, ListColumns, ListSource } from '../../listing/list-sql';
import { EventsTable } from '../../tables/events.tables';
import { selectInChunks, unique } from '../batches';
import { deleteAtMostReturning } from '../bounded-delete';
import { bulkInsert } from '../bulk-insert';
import { Executor, RepositoryFactories, executeText } from '../executor';
import { noteEventsWritten } from '../../written-events';

/** The list keys of `eventListDefinition`. */
const EVENT_COLUMNS: ListColumns = {
  id: { column: 'events.id', type: 'integer' },
  type: { column: 'events.type', type: 'string' },
  created_at: { column: 'events.created_at', type: 'datetime' },
};

/** The unfiltered total is the brand's kept count of stored events (migration 0023). */
const EVENT_LIST: ListSource<Selectable<EventsTable>> = {
  ...brandTableList('events', EVENT_COLUMNS),
  rowCount: (brandId) => sql<number>`coalesce((select events_stored from event_feeds where brand_id = ${brandId}), 0)`,
};

// The object is the core's entity as written; the event's type says which (the union's tag).
const rowToEvent = (r: Selectable<EventsTable>): DomainEvent =>
  ({
    id: Number(r.id),
    brandId: Number(r.brand_id),
    type: r.type,
    object: JSON.parse(r.object) as unknown,
    createdAt: r.created_at,
  }) as DomainEvent;

/**
 * Postgres: locks the brand's feed row (made on the brand's first event) for the rest of the
 * transaction, and draws the ids in the same statement: `nextval` is evaluated for rows of the
 * join with the upsert's RETURNING, which exist only once the upsert holds the lock, so a
 * transaction of the brand that commits later draws higher ids. SQLite has one writer at a time,
 * so ids drawn in a transaction already follow the commits: it draws them from its allocator.
 *
 * Both count the drawn ids as the brand's stored events (`events_stored`, the events list's
 * total): every event appended takes its id here. On Postgres the count rides on the upsert that
 * takes the lock anyway, so it adds no statement and no row to wait for; on SQLite it is one
 * upsert of the feed row per event-writing commit.
 */
const LOCK_FEED_AND_DRAW_POSTGRES =
  'with "feed" as (insert into "event_feeds" ("brand_id", "events_written", "events_stored") values ($1, $2::int, $2::int) on conflict ("brand_id") do update set "events_written" = "event_feeds"."events_written" + excluded."events_written", "events_stored" = "event_feeds"."events_stored" + excluded."events_stored" returning "brand_id") ' +
  'select nextval(\'ids_events\') as "id" from "feed" cross join generate_series(1, $2::int)';
// Run by every event-writing transaction: named on each connection, parsed and planned once there.
prepareOnPostgres(LOCK_FEED_AND_DRAW_POSTGRES);
const COUNT_FEED_SQLITE =
  'insert into "event_feeds" ("brand_id", "events_written", "events_stored") values (?, ?, ?) on conflict ("brand_id") do update set "events_written" = "event_feeds"."events_written" + excluded."events_written", "events_stored" = "event_feeds"."events_stored" + excluded."events_stored"';
/** The pruning's share of the count, within the brand. */
const UNCOUNT_PRUNED = (brandId: number, pruned: number) =>
  sql`update event_feeds set events_stored = events_stored - ${pruned} where brand_id = ${brandId}`;

export function eventRepository(executor: Executor, bound: Repositories): EventRepository {
  const { db } = executor;
  return {
    async nextFeedIds(brandId, count) {
      if (count < 1) return [];
      if (executor.dialect === 'postgres') {
        const { rows } = await executeText<{ id: number | string }>(executor, LOCK_FEED_AND_DRAW_POSTGRES, [
          brandId,
          count,
        ]);
        return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
      }
      const ids = await bound.ids.next('events', count);
      await executeText(executor, COUNT_FEED_SQLITE, [brandId, count, count]);
      return ids;
    },
    async append(events) {
      if (events.length === 0) return;
      // Counted once committed (the unit of work tells its observer); outside a transaction
      // (a test's fixture) there is no commit to wait for, and nothing is counted.
      if (executor.db.isTransaction)
        noteEventsWritten(
          bound.transaction,
          events.map((e) => e.type),
        );
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
    async deleteCreatedBefore(before, limit) {
      const brands = await deleteAtMostReturning(
        db,
        'events',
        ['brand_id', 'id'],
        limit,
        (eb) => eb('created_at', '<', before),
        'brand_id',
      );
      // After every brand's delete, in brand order as the writers lock feeds: the feed rows,
      // which the brands' event-writing commits queue for, are held only for the rest of this
      // short transaction.
      const pruned = new Map<number, number>();
      for (const brand of brands) pruned.set(Number(brand), (pruned.get(Number(brand)) ?? 0) + 1);
      for (const [brandId, count] of [...pruned].sort(([a], [b]) => a - b))
        await withinBrand(db, brandId, () => UNCOUNT_PRUNED(brandId, count).execute(db));
      return brands.length;
    },
  };
}

/** The events module's repositories, as the unit of work makes them. */
export const eventRepositoryFactories: RepositoryFactories<EventRepositories> = {
  events: (executor, bound) => eventRepository(executor, bound),
};
