import { Kysely, Migration } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/**
 * Idempotency keys (DESIGN §12): one row per (brand, app, key), keyed with brand_id first
 * (DESIGN §9). The primary key is what makes a claim exclusive: concurrent requests with one key
 * insert the same key, and all but one find it taken. `created_at` is indexed for the pruning.
 */
export function idempotencyKeysMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('app_id', bigint, (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('claim_token', 'text')
        .addColumn('locked_until', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('answer_status', 'integer')
        .addColumn('answer_body', 'text')
        .addColumn('answer_location', 'text')
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['brand_id', 'app_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('idempotency_keys').execute();
    },
  };
}
