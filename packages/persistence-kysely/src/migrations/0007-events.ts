import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { columnTypes } from './column-types';

/** Kinds added by events whose ids come from Postgres sequences `ids_<kind>`. */
export const EVENTS_ID_KINDS = ['events'] as const;

/**
 * The outbox and events feed (DESIGN §10). The primary key leads with brand_id (DESIGN §9), and
 * serves the feed's keyset pages; the created_at index serves retention, which deletes across
 * brands, and the feed's created_at filter.
 */
export function eventsMigration(dialect: Dialect): Migration {
  const { bigint } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres')
        for (const kind of EVENTS_ID_KINDS) await sql`create sequence ${sql.id(`ids_${kind}`)}`.execute(db);
      await db.schema
        .createTable('events')
        .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
        .addColumn('id', bigint, (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('object', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('events_pk', ['brand_id', 'id'])
        .execute();
      await db.schema.createIndex('events_created_at_idx').on('events').columns(['created_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('events').execute();
      if (dialect === 'postgres')
        for (const kind of EVENTS_ID_KINDS) await sql`drop sequence ${sql.id(`ids_${kind}`)}`.execute(db);
    },
  };
}
