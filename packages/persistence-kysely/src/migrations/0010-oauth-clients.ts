import { randomBytes } from 'node:crypto';
import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/**
 * API apps as OAuth clients (DESIGN §11): a public `client_id` per app, unique across brands (the
 * authorization request names the client, not the brand), and the redirect URIs registered for it.
 *
 * Apps made before get a client id here, in the form the core makes (`app_` and 24 URL-safe
 * random characters). The column is NOT NULL on Postgres once they have; SQLite cannot add that
 * constraint to an existing table, and every writer sets it.
 *
 * `api_app_redirect_uris` is keyed (brand_id, app_id, uri) as DESIGN §9 asks of new tables, and
 * refers to its app by (brand_id, id) — hence the unique key on `api_apps (brand_id, id)` — so it
 * goes with the app.
 */
export function oauthClientsMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_apps').addColumn('client_id', 'text').execute();
      const apps = await sql<{ id: number | string }>`select id from api_apps`.execute(db);
      for (const { id } of apps.rows) {
        const clientId = `app_${randomBytes(18).toString('base64url')}`;
        await sql`update api_apps set client_id = ${clientId} where id = ${id}`.execute(db);
      }
      if (dialect === 'postgres') await sql`alter table api_apps alter column client_id set not null`.execute(db);
      await db.schema.createIndex('api_apps_client_id_uq').on('api_apps').column('client_id').unique().execute();
      await db.schema.createIndex('api_apps_brand_id_uq').on('api_apps').columns(['brand_id', 'id']).unique().execute();
      await db.schema
        .createTable('api_app_redirect_uris')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('app_id', bigint, (c) => c.notNull())
        .addColumn('uri', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('api_app_redirect_uris_pk', ['brand_id', 'app_id', 'uri'])
        .addForeignKeyConstraint(
          'api_app_redirect_uris_app_fk',
          ['brand_id', 'app_id'],
          'api_apps',
          ['brand_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('api_app_redirect_uris').execute();
      await db.schema.dropIndex('api_apps_brand_id_uq').execute();
      await db.schema.dropIndex('api_apps_client_id_uq').execute();
      await db.schema.alterTable('api_apps').dropColumn('client_id').execute();
    },
  };
}
