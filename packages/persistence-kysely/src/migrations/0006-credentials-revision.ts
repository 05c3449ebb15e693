import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/**
 * One row counting the changes that make stored credentials invalid (a token revoked, later a key
 * rotated). API processes cache verified tokens and read this single row per request: while it is
 * unchanged their cache is good, and a revocation committed by any process is seen on the very
 * next request everywhere (DESIGN §3, §9) without reading the token and its app again.
 */
export function credentialsRevisionMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('credentials_revision')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('revision', bigint, (c) => c.notNull())
        .execute();
      await sql`insert into credentials_revision (id, revision) values (1, 0)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('credentials_revision').execute();
    },
  };
}
