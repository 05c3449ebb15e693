import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/**
 * Console sessions (DESIGN §11): a browser's log-in to the OAuth pages and the console, found by
 * (brand_id, secret_hash), the cookie naming the brand. Keyed with brand_id first (DESIGN §9), the
 * hash lookup's unique key too. Users have no key with brand_id yet, so, as in 0011, nothing
 * refers to them: a session of a user who is gone resolves to nothing and is deleted then.
 */
export function consoleSessionsMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await sql`create sequence ids_console_sessions`.execute(db);
      await db.schema
        .createTable('console_sessions')
        .addColumn('brand_id', bigint, (c) => c.notNull())
        .addColumn('id', bigint, (c) => c.notNull())
        .addColumn('user_id', bigint, (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('console_sessions_pk', ['brand_id', 'id'])
        .addUniqueConstraint('console_sessions_secret_hash_key', ['brand_id', 'secret_hash'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('console_sessions').execute();
      if (dialect === 'postgres') await sql`drop sequence ids_console_sessions`.execute(db);
    },
  };
}
