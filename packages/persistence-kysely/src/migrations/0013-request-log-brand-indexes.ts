import { Kysely, Migration, SqlBool, sql } from 'kysely';

/**
 * The console's request log (DESIGN §11) reads a brand's requests newest first, 50 at a time, from
 * a position, optionally of one app or only failures. The log grows with every API request, so
 * each of those reads walks an index in that order from the position and stops after a page:
 * - (brand_id, created_at, id): the brand's requests (2xx pages too: most requests succeed);
 * - (brand_id, app_id, created_at, id): one app's, however rarely it calls among busier ones;
 * - the same as the first, but only of failures (status >= 400): the errors, 4xx and 5xx pages,
 *   however rare failures are. Partial, so requests that succeed cost it nothing on write. The
 *   adapter's query states `status >= 400` as a literal, which SQLite needs to use it.
 * The (brand_id, user_id, id) index of 0001 stays for `listForUser`.
 */
export function requestLogBrandIndexesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('request_logs_brand_time_idx')
        .on('request_logs')
        .columns(['brand_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('request_logs_brand_app_time_idx')
        .on('request_logs')
        .columns(['brand_id', 'app_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('request_logs_brand_failures_idx')
        .on('request_logs')
        .columns(['brand_id', 'created_at', 'id'])
        .where(sql<SqlBool>`status >= 400`)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('request_logs_brand_failures_idx').execute();
      await db.schema.dropIndex('request_logs_brand_app_time_idx').execute();
      await db.schema.dropIndex('request_logs_brand_time_idx').execute();
    },
  };
}
