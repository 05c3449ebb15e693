import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listEvents, listOrders } from '@brand/core';
import { Kysely, sql } from 'kysely';
import { connectKysely, Database, Dialect, openStorage, parseDatabaseUrl } from '../src';
import { readSchema } from '../src/migrations/brand-keys/schema-model';
import {
  DatabaseFixture,
  inspectionUrl,
  loadFixture,
  migrateDatabase,
  openTestStorage,
  testDialects,
} from '../src/testing';
import { describeUnlessOnCitus } from './earlier-release';

/**
 * Existing databases migrate in place with nothing lost (DESIGN §9, issue 33).
 *
 * `fixtures/release-0016.json` is a database of the previous release (migrations up to
 * 0016-event-feeds) filled by that release's use cases: its core test suites (orders to cash,
 * production, returns, syncs, OAuth, webhooks, console sessions, idempotency, …) run against one
 * SQLite file instead of memory, then cut down to the brands that between them hold a row in
 * every table those suites fill, save the brands whose rows name other brands' ids (suites written
 * for memory gave some rows bare ids of other brands: the very rows
 * this migration refuses). Loaded into a fresh database of each dialect at 0016, it is migrated to
 * the latest schema, and every row of every table must come out as it went in.
 */
const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures/release-0016.json'), 'utf8')) as DatabaseFixture;

/**
 * An empty database: a SQLite file, or a Postgres test database emptied. `db` connects as the app
 * does (it migrates, so it owns the tables, as in a deployment); `admin` as the superuser, who
 * reads every brand's rows, which row-level security (from 0018) hides from the app's role.
 */
async function emptyDatabase(
  dialect: Dialect,
): Promise<{ url: string; db: Kysely<Database>; admin: Kysely<Database>; close(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'brand-keys-'));
    const url = join(folder, 'brand.sqlite');
    const db = connectKysely(parseDatabaseUrl(url));
    return {
      url,
      db,
      admin: db,
      async close() {
        await db.destroy();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const storage = await openTestStorage('postgres');
  if (inspectionUrl(storage.url) === storage.url) {
    await storage.close();
    // Without a superuser every row would look lost once 0018's row-level security is on.
    throw new Error(
      'the migration test reads every brand as the superuser: set TEST_POSTGRES_ADMIN_URL (npm test does)',
    );
  }
  const admin = connectKysely(parseDatabaseUrl(inspectionUrl(storage.url)));
  await sql`drop schema public cascade`.execute(admin);
  await sql`create schema public`.execute(admin);
  await sql`grant all on schema public to public`.execute(admin);
  const db = connectKysely(parseDatabaseUrl(storage.url));
  return {
    url: storage.url,
    db,
    admin,
    async close() {
      await db.destroy();
      await admin.destroy();
      await storage.close();
    },
  };
}

/** Every row of every table as canonical JSON, sorted, by table (`brand_lookups` and the migrator's own tables left out). */
async function everyRow(db: Kysely<Database>, dialect: Dialect): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await readSchema(db as unknown as Kysely<unknown>, dialect)) {
    if (table.name === 'brand_lookups') continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(db);
    out[table.name] = rows
      .map((row) =>
        JSON.stringify(
          Object.keys(row)
            .sort()
            .map((k) => [
              k,
              row[k] === null
                ? null
                : typeof row[k] === 'object'
                  ? JSON.stringify(row[k])
                  : String(row[k] as string | number),
            ]),
        ),
      )
      .sort();
  }
  return out;
}

/** The columns of a table's rows as `everyRow` writes them (each row a JSON list of [column, value]). */
const columnsOf = (rows: string[]): string[] => [
  ...new Set(rows.flatMap((row) => (JSON.parse(row) as [string, unknown][]).map(([column]) => column))),
];
/** The rows with only `columns`, in `everyRow`'s form. */
const projected = (rows: string[], columns: Set<string>): string[] =>
  rows
    .map((row) => JSON.stringify((JSON.parse(row) as [string, unknown][]).filter(([column]) => columns.has(column))))
    .sort();
/** Every value the rows hold in `columns`. */
const valuesOf = (rows: string[], columns: string[]): unknown[] =>
  rows.flatMap((row) =>
    (JSON.parse(row) as [string, unknown][]).filter(([column]) => columns.includes(column)).map(([, value]) => value),
  );

/**
 * The rows without the counters 0023 fills from the rows (the orders' row counts, the feeds'
 * stored events): derived, not moved; kept-totals-migration.test.ts checks them against the rows.
 */
function withoutKeptTotals(rows: Record<string, string[]>): Record<string, string[]> {
  const { event_feeds: _feeds, ...rest } = rows;
  const counts = rest['row_counts'];
  return counts ? { ...rest, row_counts: counts.filter((row) => !row.includes('["resource","orders"]')) } : rest;
}

for (const dialect of testDialects()) {
  describeUnlessOnCitus(dialect)(`migration 0017-brand-keys on a database of the previous release [${dialect}]`, () => {
    it('keeps every row of every table, and the repositories read them afterwards', async () => {
      const database = await emptyDatabase(dialect);
      try {
        await migrateDatabase(database.db, dialect, fixture.migration);
        await loadFixture(database.db, dialect, fixture);
        const before = withoutKeptTotals(await everyRow(database.admin, dialect));
        expect(Object.values(before).reduce((n, rows) => n + rows.length, 0)).toBeGreaterThan(200);

        const started = performance.now();
        await migrateDatabase(database.db, dialect);
        const seconds = (performance.now() - started) / 1000;

        const after = withoutKeptTotals(await everyRow(database.admin, dialect));
        // Every table kept; the tables later migrations add (bulk operations, 0020) start empty.
        expect(Object.keys(before).filter((table) => !(table in after))).toEqual([]);
        for (const table of Object.keys(after).filter((name) => !(name in before)))
          expect({ table, rows: after[table] }).toEqual({ table, rows: [] });
        // Columns later migrations add (request_logs.route in 0021) are left out, and must be null.
        for (const table of Object.keys(before)) {
          const columns = new Set(columnsOf(before[table]!));
          const added = columnsOf(after[table]!).filter((column) => !columns.has(column));
          expect({ table, rows: projected(after[table]!, columns) }).toEqual({ table, rows: before[table] });
          expect({ table, added: valuesOf(after[table]!, added) }).toEqual({
            table,
            added: valuesOf(after[table]!, added).map(() => null),
          });
        }
        // The look-ups were filled from the rows: every token, client id and public link finds its brand.
        const { rows: lookups } = await sql<{ kind: string; n: number }>`
          select kind, count(*) as n from brand_lookups group by kind order by kind`.execute(database.admin);
        const count = (table: string, column: string) =>
          fixture.tables[table]!.rows.filter((r) => r[fixture.tables[table]!.columns.indexOf(column)] !== null).length;
        expect(Object.fromEntries(lookups.map((l) => [l.kind, Number(l.n)]))).toEqual({
          access_token: count('access_tokens', 'token_hash'),
          ...(count('users', 'login_email') > 0 ? { login_email: count('users', 'login_email') } : {}),
          oauth_client: count('api_apps', 'client_id'),
          order_channel: count('order_channels', 'public_id'),
          return_portal: count('return_portals', 'public_id'),
        });
        expect(seconds).toBeGreaterThan(0);

        // Through the repositories of this release, as the app connects.
        const storage = await openStorage(database.url);
        try {
          const tokens = fixture.tables['access_tokens']!;
          const hashAt = tokens.columns.indexOf('token_hash');
          const brandAt = tokens.columns.indexOf('brand_id');
          for (const row of tokens.rows) {
            const token = await storage.uow.read((r) => r.accessTokens.findByHash(row[hashAt] as string));
            expect(token?.brandId).toBe(Number(row[brandAt]));
          }
          const orders = fixture.tables['orders']!;
          const orderBrand = orders.columns.indexOf('brand_id');
          const orderId = orders.columns.indexOf('id');
          for (const row of orders.rows) {
            const [order] = await storage.uow.read((r) =>
              r.orders.findByIds(Number(row[orderBrand]), [Number(row[orderId])]),
            );
            expect(order?.lines.length).toBeGreaterThan(0);
          }
        } finally {
          await storage.close();
        }
      } finally {
        await database.close();
      }
    });

    it("fills the kept totals of orders and events (0023) from the rows: every brand's equal count(*)", async () => {
      const database = await emptyDatabase(dialect);
      try {
        await migrateDatabase(database.db, dialect, fixture.migration);
        await loadFixture(database.db, dialect, fixture);
        await migrateDatabase(database.db, dialect);

        const counts = async (text: string) =>
          Object.fromEntries(
            (await sql.raw<{ brand_id: unknown; n: unknown }>(text).execute(database.admin)).rows
              .map((r) => [Number(r.brand_id), Number(r.n)] as const)
              .filter(([, n]) => n !== 0),
          );
        const orders = await counts('select brand_id, count(*) as n from orders group by brand_id');
        const events = await counts('select brand_id, count(*) as n from events group by brand_id');
        expect(Object.keys(orders).length + Object.keys(events).length).toBeGreaterThan(0);
        expect(await counts("select brand_id, row_count as n from row_counts where resource = 'orders'")).toEqual(
          orders,
        );
        expect(await counts('select brand_id, events_stored as n from event_feeds')).toEqual(events);

        // The lists' unfiltered totals read the counters.
        const storage = await openStorage(database.url);
        try {
          const query = { sort: [{ key: 'id', direction: 'ASC' as const }], limit: '1' };
          for (const [brandId, n] of Object.entries(orders))
            expect((await listOrders({ uow: storage.uow }, { brandId: Number(brandId), query })).page.total).toBe(n);
          for (const [brandId, n] of Object.entries(events))
            expect((await listEvents({ uow: storage.uow }, { brandId: Number(brandId), query })).page.total).toBe(n);
        } finally {
          await storage.close();
        }
      } finally {
        await database.close();
      }
    });

    it("stops on a row whose brand disagrees with its parent's, names it, and changes nothing", async () => {
      const database = await emptyDatabase(dialect);
      try {
        await migrateDatabase(database.db, dialect, fixture.migration);
        await loadFixture(database.db, dialect, fixture);
        const lines = fixture.tables['order_lines']!;
        const lineId = Number(lines.rows[0]![lines.columns.indexOf('id')]);
        const lineBrand = Number(lines.rows[0]![lines.columns.indexOf('brand_id')]);
        const otherBrand = Number(
          fixture.tables['brands']!.rows.map((r) => r[0]).find((id) => Number(id) !== lineBrand),
        );
        await sql`update order_lines set brand_id = ${otherBrand} where id = ${lineId}`.execute(database.db);
        const before = await everyRow(database.admin, dialect);

        const failure = await migrateDatabase(database.db, dialect).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(Error);
        const message = (failure as Error).message;
        expect(message).toMatch(/nothing was changed/);
        expect(message).toMatch(
          new RegExp(
            `order_lines\\.order_id: row id ${lineId} of brand ${otherBrand} points at orders id \\d+ of brand ${lineBrand}`,
          ),
        );
        expect(message).toMatch(new RegExp(`order_lines\\.variant_id: row id ${lineId} of brand ${otherBrand}`));

        const { rows } = await sql<{
          name: string;
        }>`select name from kysely_migration order by name desc limit 1`.execute(database.db);
        expect(rows[0]!.name).toBe(fixture.migration);
        expect(await everyRow(database.admin, dialect)).toEqual(before);
      } finally {
        await database.close();
      }
    });
  });
}
