import { createBrand, FixedClock, listCustomers, Repositories, syncCustomers, UnitOfWork } from '@brand/core';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { openTestStorage, testDialects } from '../src/testing';
import { openConnection } from '../src/connection';
import { SqliteLane } from '../src/sqlite-lane';

/** A gate the test opens: work awaiting `passed` goes on once `open` is called. */
function gate(): { passed: Promise<void>; open: () => void } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { passed, open };
}

const customer = (customerNumber: string) => ({ customerNumber, name: `Customer ${customerNumber}`, currency: 'EUR' });

for (const dialect of testDialects()) {
  describe(`statements outside the query builder's executor [${dialect}]`, () => {
    it('a read outside an open transaction never sees its uncommitted rows, before or after its rollback', async () => {
      const storage = await openTestStorage(dialect);
      const written = gate();
      const rollBack = gate();
      try {
        const clock = new FixedClock();
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        const list = () => listCustomers({ uow: storage.uow }, { brandId: brand.id, query: {} });
        // The sync's transaction stays open (its rows written, not committed) until the test lets it fail.
        const pausing: UnitOfWork<Repositories> = {
          read: (work) => storage.uow.read(work),
          run: (work) =>
            storage.uow.run(async (tx) => {
              await work(tx);
              written.open();
              await rollBack.passed;
              throw new Error('rolled back on purpose');
            }),
        };
        const sync = syncCustomers({ uow: pausing, clock }, { brandId: brand.id, customers: [customer('C1')] });
        const syncFailed = expect(sync).rejects.toThrow('rolled back on purpose');
        await written.passed;

        const during = list();
        if (dialect === 'postgres') {
          // Another connection of the pool: the read does not wait for the writer and sees only committed rows.
          expect((await during).page.items).toEqual([]);
        } else {
          // The transaction holds SQLite's only connection: the read waits for it instead of
          // running at once on the lane, where it would see the transaction's rows. Run on the
          // lane, it would have settled within microtasks, long before this timer.
          const settledEarly = await Promise.race([
            during.then(() => true),
            new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 50)),
          ]);
          expect(settledEarly).toBe(false);
        }
        rollBack.open();
        await syncFailed;

        const [whileOpen, afterwards] = [await during, await list()];
        expect(whileOpen.page.items).toEqual([]);
        expect(whileOpen.page.total).toBe(0);
        expect(afterwards.page.items).toEqual([]);
      } finally {
        // A failed expectation above must not leave the transaction (and the pool's close) waiting.
        rollBack.open();
        await storage.close();
      }
    });

    it('runs a transaction’s statements and free-standing reads on the lane on SQLite, and answers as before', async () => {
      const storage = await openTestStorage(dialect);
      const lane = jest.spyOn(SqliteLane.prototype, 'run');
      try {
        const clock = new FixedClock();
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        lane.mockClear();
        await syncCustomers(
          { uow: storage.uow, clock },
          { brandId: brand.id, customers: [customer('C1'), customer('C2')] },
        );
        const inTransaction = lane.mock.calls.length;
        const { page } = await listCustomers({ uow: storage.uow }, { brandId: brand.id, query: {} });
        expect(page.items.map((c) => c.customerNumber)).toEqual(['C1', 'C2']);
        expect(page.total).toBe(2);
        if (dialect === 'sqlite') {
          expect(inTransaction).toBeGreaterThan(0);
          expect(lane.mock.calls.length).toBeGreaterThan(inTransaction);
        } else expect(lane).not.toHaveBeenCalled();
      } finally {
        lane.mockRestore();
        await storage.close();
      }
    });

    it('tells a statement observer of every statement, and keeps the lane on SQLite', async () => {
      const observed: { sql: string; durationMs: number }[] = [];
      const storage = await openTestStorage(dialect, {
        observer: { statementRan: (text, durationMs) => observed.push({ sql: text, durationMs }) },
      });
      const lane = jest.spyOn(SqliteLane.prototype, 'run');
      try {
        const clock = new FixedClock();
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        observed.length = 0;
        lane.mockClear();
        await syncCustomers({ uow: storage.uow, clock }, { brandId: brand.id, customers: [customer('C1')] });
        await listCustomers({ uow: storage.uow }, { brandId: brand.id, query: {} });

        const texts = observed.map((statement) => statement.sql);
        expect(texts.some((text) => /^insert into "customers"/i.test(text))).toBe(true);
        expect(texts.some((text) => /^select/i.test(text))).toBe(true);
        expect(texts.some((text) => /^begin/i.test(text))).toBe(true);
        expect(texts.some((text) => /^commit/i.test(text))).toBe(true);
        for (const { durationMs } of observed) expect(durationMs).toBeGreaterThanOrEqual(0);
        // Placeholders, never the values.
        expect(texts.join('\n')).not.toContain('Customer C1');
        if (dialect === 'sqlite') {
          // The lane stays, and tells the observer of what it runs (the query builder's log never sees those).
          expect(lane).toHaveBeenCalled();
          for (const [text] of lane.mock.calls) expect(texts).toContain(text);
        } else expect(lane).not.toHaveBeenCalled();
      } finally {
        lane.mockRestore();
        await storage.close();
      }
    });
  });
}

describe('a statement observer on the lane', () => {
  it('is told of a failing statement with its error, and the error still reaches the caller', () => {
    const sqlite = new BetterSqlite3(':memory:');
    const told: { sql: string; error: unknown }[] = [];
    try {
      const lane = new SqliteLane(sqlite, (text, _durationMs, error) => told.push({ sql: text, error }));
      expect(lane.run<{ one: number }>('select 1 as one', []).rows).toEqual([{ one: 1 }]);
      expect(() => lane.run('select * from no_such_table', [])).toThrow(/no such table/);
      expect(told).toEqual([
        { sql: 'select 1 as one', error: undefined },
        {
          sql: 'select * from no_such_table',
          error: expect.objectContaining({ message: expect.stringMatching(/no such table/) }),
        },
      ]);
    } finally {
      sqlite.close();
    }
  });
});

describe('waiting for SQLite’s connection', () => {
  it('serves waiting transactions first come, first served, each after the one before has ended', async () => {
    const storage = await openTestStorage('sqlite');
    const release = gate();
    try {
      const entered = gate();
      const order: string[] = [];
      const first = storage.uow.run(async (tx) => {
        await tx.ids.next('orders');
        entered.open();
        await release.passed;
        order.push('first ends');
      });
      await entered.passed;
      const waiting = ['A', 'B', 'C'].map((name) =>
        storage.uow.run(async (tx) => {
          order.push(`${name} starts`);
          const [id] = await tx.ids.next('orders');
          order.push(`${name} ends`);
          return id;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(order).toEqual([]);
      release.open();
      await first;
      expect(await Promise.all(waiting)).toEqual([2, 3, 4]);
      expect(order).toEqual(['first ends', 'A starts', 'A ends', 'B starts', 'B ends', 'C starts', 'C ends']);
    } finally {
      release.open();
      await storage.close();
    }
  });
});

describe('the lane’s prepared statements', () => {
  it('keeps at most 200, gives a statement used since the last eviction pass a second chance, and answers the same after eviction', () => {
    const sqlite = new BetterSqlite3(':memory:');
    const prepare = jest.spyOn(sqlite, 'prepare');
    try {
      const lane = new SqliteLane(sqlite);
      const select = (n: number) => lane.run<{ n: number }>(`select ? + ${n} as n`, [1]).rows[0]!.n;
      for (let n = 0; n < 200; n++) expect(select(n)).toBe(n + 1);
      expect(prepare).toHaveBeenCalledTimes(200);
      expect(select(0)).toBe(1); // a hit: statement 0 is marked used
      expect(prepare).toHaveBeenCalledTimes(200);
      expect(select(200)).toBe(201); // the 201st evicts the oldest unused one: statement 1
      expect(select(0)).toBe(1);
      expect(prepare).toHaveBeenCalledTimes(201);
      expect(select(1)).toBe(2); // prepared anew
      expect(prepare).toHaveBeenCalledTimes(202);
    } finally {
      sqlite.close();
    }
  });
});

describe('parameters on SQLite', () => {
  /**
   * The SQLite compiler writes `+?` so that the planner never looks into a parameter (which made
   * SQLite compile such statements again on every run; connection.ts). `+` must change nothing:
   * each comparison below answers over the compiled `+?` text exactly as over bare `?`.
   */
  it('are written as +? and compare, match and limit exactly as bare placeholders do', async () => {
    const { db } = openConnection({ dialect: 'sqlite', location: ':memory:' });
    const raw = new BetterSqlite3(':memory:');
    try {
      const schema =
        'create table t (brand_id integer not null, id integer not null, code text, amount numeric, primary key (brand_id, id))';
      const rows = [
        [1, 1, 'A-1', 10],
        [1, 2, '10', 2.5],
        [1, 3, 'a_%', null],
        [2, 4, 'A-1', 10],
      ];
      await sql.raw(schema).execute(db);
      raw.exec(schema);
      for (const row of rows) {
        await sql`insert into t values (${row[0]}, ${row[1]}, ${row[2]}, ${row[3]})`.execute(db);
        raw.prepare('insert into t values (?, ?, ?, ?)').run(...row);
      }
      const probes: [string, unknown[]][] = [
        ['brand_id = ? order by id', [1]],
        ['brand_id = ? order by id', ['1']], // text bound against an integer column
        ['brand_id = ? order by id', [1.0]],
        ['brand_id = ? order by id', [1n]],
        ['brand_id = ? and id > ? order by id limit ?', [1, 1, 1]],
        ['code = ? order by id', [10]], // a number bound against a text column
        ['code = ? order by id', ['10']],
        ['amount = ? order by id', ['10']],
        ['amount = ? order by id', [2.5]],
        ['code like ? order by id', ['a%']],
        ["code like ? escape '\\' order by id", ['a\\_\\%']],
        ['id in (?, ?) order by id desc', [4, '2']],
        ['amount is ? order by id', [null]],
        ['coalesce(amount, ?) = ? order by id', [0, 0]],
      ];
      for (const [where, parameters] of probes) {
        let index = 0;
        const parts = where.split('?');
        const compiledWhere = parts
          .slice(1)
          .reduce((built, part) => sql`${built}${parameters[index++]}${sql.raw(part)}`, sql.raw(parts[0]!));
        const compiled = sql`select * from t where ${compiledWhere}`.compile(db);
        expect(compiled.sql).toBe(`select * from t where ${where.replaceAll('?', '+?')}`);
        const expected = raw.prepare(`select * from t where ${where}`).all(...parameters);
        expect({ where, parameters, rows: (await db.executeQuery(compiled)).rows }).toEqual({
          where,
          parameters,
          rows: expected,
        });
      }
    } finally {
      raw.close();
      await db.destroy();
    }
  });
});
