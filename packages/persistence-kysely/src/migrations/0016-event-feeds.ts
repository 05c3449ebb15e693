import { Kysely, Migration } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/**
 * One row per brand whose transactions write events (DESIGN §10, "the feed never skips"): the
 * outbox's commit step updates it before drawing the transaction's event ids, so the row lock
 * queues the brand's event-writing commits and its ids follow their commit order
 * (`EventRepository.nextFeedIds`). `events_written` counts the brand's events; the count is a
 * by-product, the lock is the point. Keyed by brand_id alone: one brand, one row (DESIGN §9).
 * Rows appear on a brand's first event, so existing databases need no backfill. Postgres only,
 * like the id sequences: SQLite runs one write transaction at a time, so its ids follow the
 * commits without a lock.
 */
export function eventFeedsMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await db.schema
        .createTable('event_feeds')
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('events_written', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('event_feeds_pk', ['brand_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await db.schema.dropTable('event_feeds').execute();
    },
  };
}
