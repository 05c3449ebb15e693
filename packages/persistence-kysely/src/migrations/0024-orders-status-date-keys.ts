import { Kysely, Migration } from 'kysely';

/**
 * `orders (brand_id, status, created_at)` of 0023 gains the order's id as its last column, so a
 * filtered page on Postgres picks its keys from the index alone (`pageStatement` in
 * listing/list-sql.ts): the orders of a status and a date range, in id order, without visiting a
 * row, then the page's rows by their keys. Without the id, Postgres guessed between sorting the
 * range's rows (fetched from the table) and walking every order of the status in id order; its
 * guess follows statistics of every brand at once, and with other brands' orders crowding the
 * recent days it walked every order of one brand's status for a one-day range
 * (docs/performance.md, "The filtered list's tail"). SQLite gets the same index (one schema).
 */
export function ordersStatusDateKeysMigration(): Migration {
  const recreate = async (db: Kysely<unknown>, columns: string[]) => {
    await db.schema.dropIndex('orders_status_created_idx').execute();
    await db.schema.createIndex('orders_status_created_idx').on('orders').columns(columns).execute();
  };
  return {
    async up(db: Kysely<unknown>) {
      await recreate(db, ['brand_id', 'status', 'created_at', 'id']);
    },
    async down(db: Kysely<unknown>) {
      await recreate(db, ['brand_id', 'status', 'created_at']);
    },
  };
}
