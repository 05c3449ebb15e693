import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds added by webhooks whose ids come from Postgres sequences `ids_<kind>`. */
export const WEBHOOKS_ID_KINDS = ['webhook_endpoints'] as const;

/** Webhook endpoints (DESIGN §10), keyed (brand_id, id) as every new table (DESIGN §9). */
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
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_endpoints_pk', ['brand_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('webhook_endpoints').execute();
      if (dialect === 'postgres')
        for (const kind of WEBHOOKS_ID_KINDS) await sql`drop sequence ${sql.id(`ids_${kind}`)}`.execute(db);
    },
  };
}
