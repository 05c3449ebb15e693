import { Kysely, sql } from 'kysely';
import { Dialect } from '../../storage';
import { columnTypes } from '../column-types';

/**
 * Values that are unique across brands and arrive before the brand is known, with the column each
 * one lives in. Frozen here as they were at 0017 (the repositories keep their own copy of the kinds).
 */
const LOOKUP_SOURCES = [
  { kind: 'access_token', table: 'access_tokens', column: 'token_hash' },
  { kind: 'login_email', table: 'users', column: 'login_email' },
  { kind: 'oauth_client', table: 'api_apps', column: 'client_id' },
  { kind: 'order_channel', table: 'order_channels', column: 'public_id' },
  { kind: 'return_portal', table: 'return_portals', column: 'public_id' },
] as const;

/**
 * `brand_lookups`: one indexed read from a global value to its brand (DESIGN §9). Its primary key
 * keeps each value unique across brands, which the tenant tables' own keys (now with brand_id) no
 * longer do. It holds no business data, so it needs no row-level security, and on Citus it is a
 * reference table. Filled from the rows that exist.
 */
export async function createGlobalLookups(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const { bigint } = columnTypes(dialect);
  await db.schema
    .createTable('brand_lookups')
    .ifNotExists()
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('brand_id', bigint, (c) => c.notNull().references('brands.id'))
    .addPrimaryKeyConstraint('brand_lookups_pk', ['kind', 'value'])
    .execute();
  for (const { kind, table, column } of LOOKUP_SOURCES) {
    await sql`
      insert into brand_lookups (kind, value, brand_id)
      select ${kind}, ${sql.ref(column)}, brand_id from ${sql.table(table)} where ${sql.ref(column)} is not null
      on conflict do nothing`.execute(db);
  }
}
