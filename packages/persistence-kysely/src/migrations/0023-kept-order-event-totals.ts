import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/**
 * The totals of the orders list and of the events feed kept as counters, like those of customers
 * and products (issue 37), and an index for the orders list filtered by status and a date range:
 * - `row_counts` gains the resource `orders`, moved by the order's first save.
 * - `event_feeds.events_stored`: the brand's events now in the table, moved by the same upsert
 *   that locks the feed and draws the ids (`EventRepository.nextFeedIds`) and taken down by the
 *   feed's pruning. SQLite gets the feed table here, for the count alone (it needs no lock).
 * - `orders (brand_id, status, created_at)`: a status and a `created_at` range are one range of
 *   the index; `(brand_id, status, id)` of 0003 walked every order of the status and tested the
 *   date on each. The page's order by id follows a range on `created_at`, so no column after it
 *   could serve the order: the matching rows are sorted, as they are counted, in proportion to
 *   the range.
 *
 * Both counters are filled from the rows already there, brand by brand, so an upgraded database
 * has exact totals. On Postgres each brand's statements run within that brand: row-level security
 * (0018) binds the migration's role too.
 */
export function keptOrderEventTotalsMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres')
        await db.schema
          .alterTable('event_feeds')
          .addColumn('events_stored', bigint, (c) => c.notNull().defaultTo(0))
          .execute();
      else
        await db.schema
          .createTable('event_feeds')
          .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
          .addColumn('events_written', bigint, (c) => c.notNull())
          .addColumn('events_stored', bigint, (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('event_feeds_pk', ['brand_id'])
          .execute();
      await db.schema
        .createIndex('orders_status_created_idx')
        .on('orders')
        .columns(['brand_id', 'status', 'created_at'])
        .execute();

      const brands = await sql<{ id: number | string }>`select id from brands order by id`.execute(db);
      for (const { id } of brands.rows) {
        const brandId = Number(id);
        if (dialect === 'postgres') await sql.raw(`set local brand.id = '${brandId}'`).execute(db);
        await sql`insert into row_counts (brand_id, resource, row_count)
          select brand_id, 'orders', count(*) from orders where brand_id = ${brandId} group by brand_id
          on conflict (brand_id, resource) do update set row_count = excluded.row_count`.execute(db);
        await sql`insert into event_feeds (brand_id, events_written, events_stored)
          select brand_id, count(*), count(*) from events where brand_id = ${brandId} group by brand_id
          on conflict (brand_id) do update set events_stored = excluded.events_stored`.execute(db);
      }
      if (dialect === 'postgres') await sql.raw(`set local brand.id = ''`).execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('orders_status_created_idx').execute();
      if (dialect === 'postgres') await db.schema.alterTable('event_feeds').dropColumn('events_stored').execute();
      else await db.schema.dropTable('event_feeds').execute();
      // Only the orders' counts came in here; the other resources' rows stay.
      await sql`delete from row_counts where resource = 'orders'`.execute(db);
    },
  };
}
