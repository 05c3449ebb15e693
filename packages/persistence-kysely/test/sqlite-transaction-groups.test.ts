import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Brand, createBrand, DomainError, FixedClock, Repositories } from '@brand/core';
import { Kysely, sql } from 'kysely';
import { KyselyUnitOfWork, openStorage } from '../src';
import { testDialects } from '../src/testing';
import { openConnection, parseDatabaseUrl } from '../src/connection';
import { Database } from '../src/database';
import { TransactionGroupLimits } from '../src/sqlite-transaction-groups';

/** A gate the test opens: work awaiting `passed` goes on once `open` is called. */
function gate(): { passed: Promise<void>; open: () => void } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { passed, open };
}

interface GroupedFixture {
  uow: KyselyUnitOfWork;
  db: Kysely<Database>;
  brand: Brand;
  file: string;
  /** A second connection to the same file: it sees only what is committed. */
  committedBrandNames: () => string[];
  close: () => Promise<void>;
}

/**
 * A migrated SQLite file with one brand, its unit of work on the lane (as the API runs it), and an
 * observer connection. Groups have no time bound unless `groupLimits` gives one: which member
 * lands in which group must not depend on how fast the machine is.
 */
async function groupedFixture(
  options: { lockTimeoutMs?: number; groupLimits?: TransactionGroupLimits } = {},
): Promise<GroupedFixture> {
  const { lockTimeoutMs, groupLimits = { timeMs: Number.POSITIVE_INFINITY } } = options;
  const folder = mkdtempSync(join(tmpdir(), 'brand-groups-'));
  const file = join(folder, 'brand.sqlite');
  const setup = await openStorage(file);
  await setup.migrate();
  const brand = await createBrand({ uow: setup.uow, clock: new FixedClock() }, { name: 'Acme', currency: 'EUR' });
  await setup.close();
  const { db, lane } = openConnection(parseDatabaseUrl(file), lockTimeoutMs === undefined ? {} : { lockTimeoutMs });
  const observer = new BetterSqlite3(file, { readonly: true });
  return {
    uow: new KyselyUnitOfWork(db, 'sqlite', lane, groupLimits),
    db,
    brand,
    file,
    committedBrandNames: () =>
      (observer.prepare('select name from brands order by id').all() as { name: string }[]).map((row) => row.name),
    async close() {
      observer.close();
      await db.destroy();
      lane?.committedReads?.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Inserts a brand named `name` inside `tx`; returns its id. */
async function insertBrand(tx: Repositories, like: Brand, name: string): Promise<number> {
  const [id] = (await tx.ids.next('brands')) as [number];
  await tx.brands.insert({ ...like, id, name });
  return id;
}

// Skipped, not left out, when the run has no SQLite: a file without a test fails jest.
(testDialects().includes('sqlite') ? describe : describe.skip)(
  'units of work that queue up on SQLite share one transaction',
  () => {
    it('runs the queued ones in the running one’s transaction, in order, and answers each only after the commit', async () => {
      const fixture = await groupedFixture();
      const release = gate();
      try {
        const entered = gate();
        const first = fixture.uow.run(async (tx) => {
          await insertBrand(tx, fixture.brand, 'first');
          entered.open();
          await release.passed;
          return 'first';
        });
        await entered.passed;
        const seenInsideC: string[][] = [];
        const queued = ['A', 'B', 'C'].map((name) =>
          fixture.uow.run(async (tx) => {
            await insertBrand(tx, fixture.brand, name);
            if (name === 'C') seenInsideC.push(fixture.committedBrandNames());
            return name;
          }),
        );
        // Each answer comes after the commit that stored the whole group.
        const seenAtAnswers = [first, ...queued].map((answer) => answer.then(() => fixture.committedBrandNames()));
        release.open();
        expect(await Promise.all([first, ...queued])).toEqual(['first', 'A', 'B', 'C']);
        // Inside C, nothing of the group was committed yet: the four ran in one transaction.
        expect(seenInsideC).toEqual([['Acme']]);
        for (const seen of await Promise.all(seenAtAnswers)) {
          expect(seen).toEqual(['Acme', 'first', 'A', 'B', 'C']);
        }
      } finally {
        release.open();
        await fixture.close();
      }
    });

    it.each([
      { gatherNextTurn: true, joins: true },
      { gatherNextTurn: false, joins: false },
    ])(
      'with gatherNextTurn $gatherNextTurn, a unit of work arriving the turn after the running one ran dry joins its group: $joins',
      async ({ gatherNextTurn, joins }) => {
        const fixture = await groupedFixture({ groupLimits: { timeMs: Number.POSITIVE_INFINITY, gatherNextTurn } });
        try {
          let second: Promise<string[]> | undefined;
          const first = fixture.uow.run(async (tx) => {
            await insertBrand(tx, fixture.brand, 'first');
            // Queued in the next turn of the event loop, as the server hands over the next request.
            setImmediate(() => {
              second = fixture.uow.run(async (inner) => {
                await insertBrand(inner, fixture.brand, 'second');
                return fixture.committedBrandNames();
              });
            });
          });
          await first;
          const seenInsideSecond = await second!;
          // In the same group, `first` is not committed yet while `second` runs.
          expect(seenInsideSecond).toEqual(joins ? ['Acme'] : ['Acme', 'first']);
          expect(fixture.committedBrandNames()).toEqual(['Acme', 'first', 'second']);
        } finally {
          await fixture.close();
        }
      },
    );

    it('rolls a failing member back to its savepoint alone: the others are stored, its writes are not', async () => {
      const fixture = await groupedFixture();
      const release = gate();
      try {
        const entered = gate();
        const first = fixture.uow.run(async (tx) => {
          const id = await insertBrand(tx, fixture.brand, 'first');
          entered.open();
          await release.passed;
          return id;
        });
        await entered.passed;
        const failing = fixture.uow.run(async (tx) => {
          await insertBrand(tx, fixture.brand, 'refused');
          throw new DomainError('validation_failed', 'refused after writing');
        });
        const after = fixture.uow.run((tx) => insertBrand(tx, fixture.brand, 'after'));
        release.open();
        await expect(failing).rejects.toMatchObject({ code: 'validation_failed' });
        // The refused member's id draw was rolled back with it: `after` drew the next id.
        expect(await after).toBe((await first) + 1);
        expect(fixture.committedBrandNames()).toEqual(['Acme', 'first', 'after']);
      } finally {
        release.open();
        await fixture.close();
      }
    });

    it('tries a member that lost a unique race again, and the new attempt sees the winner’s row', async () => {
      const fixture = await groupedFixture();
      const release = gate();
      try {
        const entered = gate();
        const winnerId = fixture.brand.id + 100;
        const first = fixture.uow.run(async (tx) => {
          await tx.brands.insert({ ...fixture.brand, id: winnerId, name: 'winner' });
          entered.open();
          await release.passed;
        });
        await entered.passed;
        let attempts = 0;
        const loser = fixture.uow.run(async (tx) => {
          attempts++;
          // The first attempt inserts blindly, as a racing writer would.
          if (attempts > 1 && (await tx.brands.findById(winnerId))) return 'found the winner';
          await tx.brands.insert({ ...fixture.brand, id: winnerId, name: 'loser' });
          return 'inserted';
        });
        release.open();
        await first;
        expect(await loser).toBe('found the winner');
        expect(attempts).toBe(2);
        expect(fixture.committedBrandNames()).toEqual(['Acme', 'winner']);
      } finally {
        release.open();
        await fixture.close();
      }
    });

    it('fails every member whose writes SQLite rolled back (a full disk ends the whole transaction), and the next group works', async () => {
      const fixture = await groupedFixture();
      const release = gate();
      try {
        const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(fixture.db);
        // The file may not grow: a small row still fits a page, a large one cannot.
        await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(fixture.db);
        const entered = gate();
        const first = fixture.uow.run(async (tx) => {
          await insertBrand(tx, fixture.brand, 'first');
          entered.open();
          await release.passed;
        });
        await entered.passed;
        const tooLarge = fixture.uow.run((tx) => insertBrand(tx, fixture.brand, 'x'.repeat(200_000)));
        const next = fixture.uow.run((tx) => insertBrand(tx, fixture.brand, 'next'));
        release.open();
        for (const failed of [first, tooLarge]) {
          const error = await failed.catch((caught: unknown) => caught);
          expect(error).toMatchObject({
            code: 'storage_unavailable',
            cause: expect.objectContaining({ code: 'SQLITE_FULL' }),
          });
        }
        await next;
        expect(fixture.committedBrandNames()).toEqual(['Acme', 'next']);
      } finally {
        release.open();
        await fixture.close();
      }
    });

    it('commits after 32 members: the 32nd sees nothing of the group committed, the 33rd sees all 32', async () => {
      const fixture = await groupedFixture();
      const release = gate();
      try {
        const entered = gate();
        const first = fixture.uow.run(async (tx) => {
          await insertBrand(tx, fixture.brand, 'member 1');
          entered.open();
          await release.passed;
        });
        await entered.passed;
        let seenBy32nd: string[] = [];
        let seenBy33rd: string[] = [];
        const others = Array.from({ length: 33 }, (_, i) =>
          fixture.uow.run(async (tx) => {
            if (i === 30) seenBy32nd = fixture.committedBrandNames();
            if (i === 31) seenBy33rd = fixture.committedBrandNames();
            await insertBrand(tx, fixture.brand, `member ${i + 2}`);
          }),
        );
        release.open();
        await Promise.all([first, ...others]);
        expect(seenBy32nd).toEqual(['Acme']);
        expect(seenBy33rd).toEqual(['Acme', ...Array.from({ length: 32 }, (_, i) => `member ${i + 1}`)]);
        expect(fixture.committedBrandNames()).toHaveLength(35);
      } finally {
        release.open();
        await fixture.close();
      }
    });

    it('takes no further member once the group has run for its time bound, and the next group takes it', async () => {
      let clockMs = 0;
      const fixture = await groupedFixture({ groupLimits: { timeMs: 10, now: () => clockMs } });
      const release = gate();
      try {
        const entered = gate();
        const first = fixture.uow.run(async (tx) => {
          await insertBrand(tx, fixture.brand, 'slow');
          entered.open();
          await release.passed;
          clockMs += 9; // still within the bound: the next member joins
        });
        await entered.passed;
        const seen: string[][] = [];
        const joining = fixture.uow.run(async (tx) => {
          seen.push(fixture.committedBrandNames());
          await insertBrand(tx, fixture.brand, 'joins');
          clockMs += 1; // now 10 ms since the group began
        });
        const nextGroup = fixture.uow.run(async (tx) => {
          seen.push(fixture.committedBrandNames());
          await insertBrand(tx, fixture.brand, 'next group');
        });
        release.open();
        await Promise.all([first, joining, nextGroup]);
        expect(seen).toEqual([['Acme'], ['Acme', 'slow', 'joins']]);
      } finally {
        release.open();
        await fixture.close();
      }
    });

    it('does not spin when BEGIN cannot take the write lock: each queued member fails once with storage_unavailable', async () => {
      const fixture = await groupedFixture({ lockTimeoutMs: 150 });
      const holder = new BetterSqlite3(fixture.file);
      try {
        holder.exec('begin immediate');
        const failures = await Promise.all(
          ['A', 'B', 'C'].map((name) =>
            fixture.uow.run((tx) => insertBrand(tx, fixture.brand, name)).catch((caught: unknown) => caught),
          ),
        );
        for (const error of failures) {
          expect(error).toMatchObject({
            code: 'storage_unavailable',
            cause: expect.objectContaining({ code: 'SQLITE_BUSY' }),
          });
        }
        holder.exec('rollback');
        await fixture.uow.run((tx) => insertBrand(tx, fixture.brand, 'after the lock'));
        expect(fixture.committedBrandNames()).toEqual(['Acme', 'after the lock']);
      } finally {
        holder.close();
        await fixture.close();
      }
    });
  },
);
