import { createBrand, FixedClock } from '@brand/core';
import { Client } from 'pg';
import { inspectionUrl, openTestStorage, testDialects } from '../src/testing';
import { withDatabase } from '../src/testing/postgres-admin';

const clock = new FixedClock('2026-11-29T10:00:00.000Z');

/** Runs `statement` as the superuser on the database `url` names. */
async function asAdmin<T extends Record<string, unknown>>(url: string, statement: string): Promise<T[]> {
  const admin = new Client({ connectionString: inspectionUrl(url) });
  await admin.connect();
  try {
    return (await admin.query<T>(statement)).rows;
  } finally {
    await admin.end();
  }
}

const databaseOf = (url: string): string => new URL(url).pathname.slice(1);

/** The same server's maintenance database. */
const serverOf = (url: string): string => withDatabase(url, 'postgres');

async function databaseExists(url: string, name: string): Promise<boolean> {
  const admin = new Client({ connectionString: inspectionUrl(serverOf(url)) });
  await admin.connect();
  try {
    return (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await admin.end();
  }
}

// The reuse is the test command's, on its throwaway server; this file turns it on for itself so it
// is proven whatever the caller set.
for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`test databases emptied and reused [${dialect}]`, () => {
    const before = process.env.TEST_POSTGRES_REUSE_DATABASES;
    beforeAll(() => {
      process.env.TEST_POSTGRES_REUSE_DATABASES = '1';
    });
    afterAll(() => {
      if (before === undefined) delete process.env.TEST_POSTGRES_REUSE_DATABASES;
      else process.env.TEST_POSTGRES_REUSE_DATABASES = before;
    });

    it("hands the next file the same database with no row of the last one's, ids and revision as fresh", async () => {
      const first = await openTestStorage(dialect);
      const fresh = await createBrand({ uow: first.uow, clock }, { name: 'First', currency: 'EUR' });
      await asAdmin(first.url, `update credentials_revision set revision = revision + 7 where id = 1`);
      // A connection left open, as a test's inspecting client may leave one: it is ended.
      const lingering = new Client({ connectionString: inspectionUrl(first.url) });
      lingering.on('error', () => undefined);
      await lingering.connect();
      const lingeringEnded = new Promise((resolve) => lingering.once('end', resolve));
      await first.close();
      await lingeringEnded;

      const second = await openTestStorage(dialect);
      try {
        expect(databaseOf(second.url)).toBe(databaseOf(first.url));
        const brands = await asAdmin<{ count: number }>(second.url, 'select count(*)::int as count from brands');
        expect(brands).toEqual([{ count: 0 }]);
        const revision = await asAdmin(second.url, 'select id, revision from credentials_revision');
        expect(revision).toEqual([{ id: 1, revision: expect.anything() }]);
        expect(Number(revision[0]!['revision'])).toBe(0);
        const migrations = await asAdmin<{ count: string }>(
          second.url,
          'select count(*) as count from kysely_migration',
        );
        expect(Number(migrations[0]!.count)).toBeGreaterThan(0);
        // The first brand of a fresh database gets the same id again.
        const again = await createBrand({ uow: second.uow, clock }, { name: 'Second', currency: 'EUR' });
        expect(again.id).toBe(fresh.id);
      } finally {
        await second.close();
      }
    });

    it('keeps no database closed to connections once it is handed out, and lets none in while it waits', async () => {
      const storage = await openTestStorage(dialect);
      const name = databaseOf(storage.url);
      await storage.close();
      const [waiting] = await asAdmin<{ datallowconn: boolean }>(
        serverOf(storage.url),
        `select datallowconn from pg_database where datname = '${name}'`,
      );
      expect(waiting).toEqual({ datallowconn: false });
      const intruder = new Client({ connectionString: storage.url });
      await expect(intruder.connect()).rejects.toThrow(/not currently accepting connections/);

      const next = await openTestStorage(dialect);
      try {
        expect(databaseOf(next.url)).toBe(name);
        const [open] = await asAdmin<{ datallowconn: boolean }>(
          next.url,
          `select datallowconn from pg_database where datname = current_database()`,
        );
        expect(open).toEqual({ datallowconn: true });
      } finally {
        await next.close();
      }
    });

    it.each([
      ['a changed schema', 'alter table customers add column added_by_a_test text'],
      ['planner statistics', 'analyze brands'],
    ])('drops a database left with %s instead of reusing it', async (_what, statement) => {
      const storage = await openTestStorage(dialect);
      const name = databaseOf(storage.url);
      await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
      await asAdmin(storage.url, statement);
      await storage.close();

      expect(await databaseExists(storage.url, name)).toBe(false);
      const next = await openTestStorage(dialect);
      try {
        expect(databaseOf(next.url)).not.toBe(name);
      } finally {
        await next.close();
      }
    });
  });
}
