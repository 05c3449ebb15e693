import { Kysely, Migration, sql } from 'kysely';
import { Dialect } from '../storage';
import { isTenantTable, readSchema } from './brand-keys/schema-model';

/** The one policy of every tenant table: a row is visible and writable only inside its brand. */
export const BRAND_POLICY = 'brand_isolation';

/**
 * Row-level security on Postgres (DESIGN §9, issue 33): every tenant table has it enabled and
 * forced (forced binds the tables' owner too, which is the role the API connects as), with one
 * policy admitting the rows of the brand in the connection's `brand.id` setting, for reading and
 * for writing. No brand set (or an empty one) admits nothing, so a statement that forgets its
 * brand filter sees no row of another brand instead of all of them. The connection layer sets the
 * brand (brand-session.ts). Look-up tables (`brand_lookups`) hold no business data and have none.
 *
 * A later migration that moves rows of every brand must enter each brand (or lift FORCE for the
 * moment, in its own transaction): the owner sees no rows otherwise. SQLite has no row-level
 * security; nothing to do there.
 */
export function rowLevelSecurityMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      for (const table of (await readSchema(db, dialect)).filter(isTenantTable)) {
        const name = sql.table(table.name);
        await sql`alter table ${name} enable row level security`.execute(db);
        await sql`alter table ${name} force row level security`.execute(db);
        await sql`create policy ${sql.ref(BRAND_POLICY)} on ${name}
          using (brand_id = nullif(current_setting('brand.id', true), '')::bigint)
          with check (brand_id = nullif(current_setting('brand.id', true), '')::bigint)`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      for (const table of (await readSchema(db, dialect)).filter(isTenantTable)) {
        const name = sql.table(table.name);
        await sql`drop policy if exists ${sql.ref(BRAND_POLICY)} on ${name}`.execute(db);
        await sql`alter table ${name} no force row level security`.execute(db);
        await sql`alter table ${name} disable row level security`.execute(db);
      }
    },
  };
}
