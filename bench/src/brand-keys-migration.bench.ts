/**
 * Issue 33: how long migration 0017-brand-keys (with 0018's row-level security) takes on a
 * database of the previous release with 100,000 orders, on SQLite and on Postgres.
 *
 * The database is the migration test's fixture (a previous release's rows, written by its use
 * cases) at 0016, with its orders and their lines copied in SQL until there are BENCH_ORDERS
 * orders (each copy gets fresh ids and order numbers (the originals' plus a multiple of ten million), and keeps its brand, customer and variants).
 * Prints every table's rows and the migration's seconds. Postgres runs against TEST_POSTGRES_URL,
 * or a throwaway server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { connectKysely, Database, Dialect, parseDatabaseUrl } from '@brand/persistence-kysely';
import { DatabaseFixture, loadFixture, migrateDatabase } from '@brand/persistence-kysely/testing';
import { runOnPostgres, saveResults, tempDatabasePath } from './harness';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const FIXTURE = join(__dirname, '..', '..', 'packages', 'persistence-kysely', 'test', 'fixtures', 'release-0016.json');
/** Copies' ids are the originals' plus a multiple of this (the fixture's ids are far below it). */
const ID_STEP = 10_000_000;

async function columnsOf(db: Kysely<Database>, dialect: Dialect, table: string): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
     where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db);
  return rows.map((r) => r.column_name);
}

/** Copies the orders (and their lines) `copies` times in two statements, over a numbers table. */
async function copyOrders(db: Kysely<Database>, dialect: Dialect, copies: number): Promise<void> {
  await sql`create table bench_copies (n bigint primary key)`.execute(db);
  if (dialect === 'postgres') await sql`insert into bench_copies select generate_series(1, ${copies})`.execute(db);
  else
    await sql`with recursive k(n) as (select 1 union all select n + 1 from k where n < ${copies}) insert into bench_copies select n from k`.execute(
      db,
    );
  const copy = async (table: string, expressions: Record<string, string>) => {
    const columns = await columnsOf(db, dialect, table);
    const select = columns.map((c) => sql.raw(expressions[c] ?? `t."${c}"`));
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
      select ${sql.join(select)} from ${sql.table(table)} t cross join bench_copies k where t.id < ${ID_STEP}`.execute(
      db,
    );
  };
  await copy('orders', {
    id: `t.id + k.n * ${ID_STEP}`,
    order_number: `t.order_number + k.n * ${ID_STEP}`,
  });
  await copy('order_lines', { id: `t.id + k.n * ${ID_STEP}`, order_id: `t.order_id + k.n * ${ID_STEP}` });
  await sql`drop table bench_copies`.execute(db);
}

async function rowsPerTable(db: Kysely<Database>, dialect: Dialect): Promise<Record<string, number>> {
  const tables =
    dialect === 'sqlite'
      ? (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
            db,
          )
        ).rows.map((r) => r.name)
      : (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(
            db,
          )
        ).rows.map((r) => r.name);
  const counts: Record<string, number> = {};
  for (const table of tables.sort()) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

/**
 * `url` migrates as the app's role would; rows are counted over `inspectUrl` (the superuser on
 * Postgres: after 0018, row-level security shows the app's role no rows without a brand).
 */
async function measure(
  dialect: Dialect,
  url: string,
  inspectUrl = url,
): Promise<{ dialect: Dialect; seconds: number; orders: number }> {
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as DatabaseFixture;
  const db = connectKysely(parseDatabaseUrl(url));
  const inspect = inspectUrl === url ? db : connectKysely(parseDatabaseUrl(inspectUrl));
  try {
    await migrateDatabase(db, dialect, fixture.migration);
    await loadFixture(db, dialect, fixture);
    const originals = fixture.tables['orders']!.rows.length;
    await copyOrders(db, dialect, Math.max(0, Math.ceil(ORDERS / originals) - 1));
    const before = await rowsPerTable(db, dialect);
    const started = performance.now();
    await migrateDatabase(db, dialect);
    const seconds = (performance.now() - started) / 1000;
    const after = await rowsPerTable(inspect, dialect);
    const lost = Object.keys(before).filter((t) => before[t] !== after[t]);
    if (lost.length > 0) throw new Error(`rows changed in ${lost.join(', ')}`);
    const filled = Object.entries(before).filter(([, n]) => n > 0);
    console.log(`\n${dialect}: rows per table, the same before and after (${filled.length} tables with rows)`);
    console.log(filled.map(([t, n]) => `${t} ${n}`).join(', '));
    console.log(
      `${dialect}: 0017 + 0018 on ${before['orders']} orders / ${before['order_lines']} lines: ${seconds.toFixed(1)} s`,
    );
    return { dialect, seconds, orders: before['orders']! };
  } finally {
    await db.destroy();
    if (inspect !== db) await inspect.destroy();
  }
}

async function main(): Promise<void> {
  const results = [await measure('sqlite', tempDatabasePath('brand-keys'))];
  const serverUrl = new URL(process.env.TEST_POSTGRES_URL!);
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: process.env.TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query('drop database if exists bench_brand_keys');
  await admin.query('create database bench_brand_keys');
  await admin.end();
  serverUrl.pathname = '/bench_brand_keys';
  const adminUrl = new URL(process.env.TEST_POSTGRES_ADMIN_URL ?? serverUrl.toString());
  adminUrl.pathname = '/bench_brand_keys';
  results.push(await measure('postgres', serverUrl.toString(), adminUrl.toString()));
  saveResults('brand-keys-migration', results);
}

runOnPostgres(main, __filename);
