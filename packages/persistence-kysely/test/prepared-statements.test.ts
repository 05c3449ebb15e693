import { createBrand, FixedClock, ListQuery, listCustomers, syncCustomers } from '@brand/core';
import { sql } from 'kysely';
import { Client } from 'pg';
import { openConnection, parseDatabaseUrl } from '../src/connection';
import { inspectionUrl, openTestStorage, testDialects } from '../src/testing';
import { bindRepositories } from '../src/unit-of-work';
import { bulkInsert } from '../src/repositories/bulk-insert';
import { adjustRowCount } from '../src/repositories/row-counts';

const clock = new FixedClock('2026-11-28T10:00:00.000Z');

const FIRST_TEN: ListQuery = {
  filterGroups: [],
  sort: [{ key: 'id', direction: 'ASC' }],
  includes: [],
  limit: 10,
  page: 0,
  after: null,
  withTotal: true,
};

async function asAdmin(url: string, statement: string): Promise<void> {
  const admin = new Client({ connectionString: inspectionUrl(url) });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

// Named statements are Postgres's; SQLite keeps its prepared statements by itself (connection.ts).
for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`kept statements prepared once per connection [${dialect}]`, () => {
    it('prepares the kept statements a connection runs, and only those, under their names', async () => {
      const storage = await openTestStorage(dialect);
      // One connection per pool, so the session read below is the one that ran the statements.
      const { db } = openConnection(parseDatabaseUrl(storage.url), { poolSize: 1 });
      try {
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        for (let run = 0; run < 3; run++) {
          await bindRepositories({ db, dialect }).accessTokens.credentialsRevision();
          // In a transaction, so on the connection of no brand too.
          await db
            .transaction()
            .execute((trx) => bindRepositories({ db: trx, dialect }).customers.list(brand.id, FIRST_TEN));
        }
        const { rows: prepared } = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements`.execute(db);

        // In any order: names are numbered as this process first met the texts, not as this test did.
        expect(prepared).toHaveLength(2);
        expect(prepared.map((row) => row.statement)).toEqual(
          expect.arrayContaining([
            'select revision from credentials_revision where id = 1',
            expect.stringMatching(/^select \*, coalesce\(\(select row_count from row_counts/),
          ]),
        );
        expect(prepared.every((row) => row.name.startsWith('brand_kept_'))).toBe(true);
      } finally {
        await db.destroy();
        await storage.close();
      }
    });

    it("prepares an order's kind of writes (inserts of up to 16 rows, id draws, kept counts), not a larger batch", async () => {
      const storage = await openTestStorage(dialect);
      const { db } = openConnection(parseDatabaseUrl(storage.url), { poolSize: 1 });
      try {
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        const events = (ids: number[]) =>
          ids.map((id) => ({ brand_id: brand.id, id, type: 'order.created', object: '{}', created_at: clock.now() }));
        for (let run = 0; run < 2; run++)
          await db.transaction().execute(async (trx) => {
            const executor = { db: trx, dialect };
            const ids = await bindRepositories(executor).ids.next('events', 19);
            await bulkInsert(executor, 'events', events(ids.slice(0, 3)));
            await bulkInsert(executor, 'events', events(ids.slice(3, 19)));
            await adjustRowCount(executor, brand.id, 'orders', 1);
          });
        await db.transaction().execute(async (trx) => {
          const executor = { db: trx, dialect };
          await bulkInsert(executor, 'events', events(await bindRepositories(executor).ids.next('events', 17)));
        });
        const { rows: prepared } = await sql<{ statement: string }>`
          select statement from pg_prepared_statements`.execute(db);
        const written = prepared.map((row) => row.statement).filter((text) => !text.startsWith('select revision'));
        expect(written).toHaveLength(4);
        expect(written).toEqual(
          expect.arrayContaining([
            'select nextval($1::regclass) as id from generate_series(1, $2)',
            expect.stringMatching(
              /^insert into "events" \("brand_id", "id", "type", "object", "created_at"\) values \(\$1, .*\(\$11, \$12, \$13, \$14, \$15\)$/,
            ),
            expect.stringMatching(/^insert into "events" .*\(\$76, \$77, \$78, \$79, \$80\)$/),
            expect.stringMatching(/^insert into "row_counts" /),
          ]),
        );
        // Both runs wrote: the prepared statements ran again with new values.
        const admin = new Client({ connectionString: inspectionUrl(storage.url) });
        await admin.connect();
        try {
          const { rows: stored } = await admin.query<{ n: string }>('select count(*) as n from events');
          expect(Number(stored[0]!.n)).toBe(2 * 19 + 17);
        } finally {
          await admin.end();
        }
      } finally {
        await db.destroy();
        await storage.close();
      }
    });

    it('runs on when a migration changes the columns a prepared statement returns, in and outside a transaction', async () => {
      // One connection per pool: the statements run again on the connections that prepared them.
      const storage = await openTestStorage(dialect, { poolSize: 1 });
      try {
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        await syncCustomers(
          { uow: storage.uow, clock },
          { brandId: brand.id, customers: [{ customerNumber: 'C1', name: 'Customer 1', currency: 'EUR' }] },
        );
        const outside = async () =>
          (await listCustomers({ uow: storage.uow }, { brandId: brand.id, query: {} })).page.items;
        const inside = async () => (await storage.uow.run((tx) => tx.customers.list(brand.id, FIRST_TEN))).rows;
        expect((await outside()).map((c) => c.customerNumber)).toEqual(['C1']);
        expect((await inside()).map((c) => c.customerNumber)).toEqual(['C1']);

        // What another process's migration does while this one runs: `select *` now returns one column more.
        await asAdmin(storage.url, 'alter table customers add column added_by_a_later_release text');

        expect((await outside()).map((c) => c.customerNumber)).toEqual(['C1']);
        expect((await inside()).map((c) => c.customerNumber)).toEqual(['C1']);
        expect((await outside()).map((c) => c.customerNumber)).toEqual(['C1']);
      } finally {
        await storage.close();
      }
    });
  });
}
