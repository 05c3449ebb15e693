import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds added by webhooks whose ids come from Postgres sequences `ids_<kind>`. */
export const WEBHOOKS_ID_KINDS = ['webhook_endpoints', 'webhook_deliveries'] as const;

/**
 * Webhook endpoints and their deliveries (DESIGN §10), keyed (brand_id, id) as every new table
 * (DESIGN §9). Deliveries refer to their endpoint with the brand in the key and go with it; the
 * index on (status, next_attempt_at) is what dispatchers claim due deliveries by.
 */
export function webhooksMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres')
        for (const kind of WEBHOOKS_ID_KINDS) await sql`create sequence ${sql.id(`ids_${kind}`)}`.execute(db);
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('id', bigint, (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_expires_at', 'text')
        .addColumn('failing_since', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_endpoints_pk', ['brand_id', 'id'])
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('id', bigint, (c) => c.notNull())
        .addColumn('endpoint_id', bigint, (c) => c.notNull())
        .addColumn('event_id', bigint, (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_deliveries_pk', ['brand_id', 'id'])
        .addForeignKeyConstraint(
          'webhook_deliveries_endpoint_fk',
          ['brand_id', 'endpoint_id'],
          'webhook_endpoints',
          ['brand_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_created_at_idx')
        .on('webhook_deliveries')
        .columns(['created_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint_idx')
        .on('webhook_deliveries')
        .columns(['brand_id', 'endpoint_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('webhook_deliveries').execute();
      await db.schema.dropTable('webhook_endpoints').execute();
      if (dialect === 'postgres')
        for (const kind of WEBHOOKS_ID_KINDS) await sql`drop sequence ${sql.id(`ids_${kind}`)}`.execute(db);
    },
  };
}
