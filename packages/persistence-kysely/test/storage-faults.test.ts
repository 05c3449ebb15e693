import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Brand, DomainError, FixedClock, Repositories, createBrand } from '@brand/core';
import { openStorage } from '../src';
import { openTestStorage, testDialects } from '../src/testing';
import { isRetryableConflict, isStorageUnavailable, translateDriverError } from '../src/storage-errors';

/** An error shaped like the drivers' own: a message and a `code`. */
function driverError(code: string | undefined, message = 'driver failure'): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe('storage error classification', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['08006', 'connection failure'],
    ['53100', 'could not extend file: No space left on device'],
    ['25006', 'cannot execute INSERT in a read-only transaction'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
    ['SQLITE_FULL', 'database or disk is full'],
    ['SQLITE_IOERR_WRITE', 'disk I/O error'],
    ['SQLITE_READONLY', 'attempt to write a readonly database'],
    ['SQLITE_BUSY', 'database is locked'],
  ])('takes %s (%s) for storage that cannot serve now', (code, message) => {
    expect(isStorageUnavailable(driverError(code, message))).toBe(true);
  });

  it.each([
    [undefined, 'Connection terminated unexpectedly'],
    [undefined, 'Client has encountered a connection error and is not queryable'],
    [undefined, 'timeout exceeded when trying to connect'],
  ])(
    'takes node-postgres connection failures without a code (%s %s) for storage that cannot serve now',
    (code, message) => {
      expect(isStorageUnavailable(driverError(code, message))).toBe(true);
    },
  );

  it.each([
    ['23505', 'duplicate key value violates unique constraint'],
    ['22P02', 'invalid input syntax for type bigint'],
    ['42P01', 'relation "nowhere" does not exist'],
    ['SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed'],
    ['SQLITE_ERROR', 'no such table: nowhere'],
    ['SQLITE_BUSY_SNAPSHOT', 'database is locked'],
    [undefined, 'Cannot read properties of undefined'],
  ])('does not take %s (%s) for an outage: it is the request or a bug', (code, message) => {
    expect(isStorageUnavailable(driverError(code, message))).toBe(false);
  });

  it('answers storage_unavailable with the driver error as its cause', () => {
    const cause = driverError('SQLITE_FULL', 'database or disk is full');
    const translated = translateDriverError(cause);
    expect(translated).toBeInstanceOf(DomainError);
    expect(translated).toMatchObject({ code: 'storage_unavailable', cause });
  });

  it('does not retry a database that stayed locked for the whole busy timeout, only lost write races', () => {
    expect(isRetryableConflict(driverError('SQLITE_BUSY'))).toBe(false);
    expect(isRetryableConflict(driverError('SQLITE_BUSY_SNAPSHOT'))).toBe(true);
    expect(isRetryableConflict(driverError('40001'))).toBe(true);
  });
});

/** Inserts a second brand inside `tx` (to show afterwards that nothing of the transaction was kept); returns its id. */
async function insertGhostBrand(tx: Repositories, like: Brand): Promise<number> {
  const [id] = (await tx.ids.next('brands')) as [number];
  await tx.brands.insert({ ...like, id, name: 'Ghost' });
  return id;
}

for (const dialect of testDialects()) {
  describe(`a failure inside a transaction [${dialect}]`, () => {
    // When the ROLLBACK itself fails too (SQLite already rolled back after SQLITE_FULL), the work's
    // error still wins: the full-disk HTTP test drives that path and answers 500 without it.
    it('reports the work’s own error and keeps nothing of the work', async () => {
      const storage = await openTestStorage(dialect);
      try {
        const clock = new FixedClock();
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        let ghostId = 0;
        const failure = storage.uow.run(async (tx) => {
          ghostId = await insertGhostBrand(tx, brand);
          throw new Error('the real cause');
        });
        await expect(failure).rejects.toThrow('the real cause');
        expect(await storage.uow.read((r) => r.brands.findById(ghostId))).toBeNull();
      } finally {
        await storage.close();
      }
    });
  });
}

if (testDialects().includes('postgres')) {
  describe('a connection terminated mid-transaction [postgres]', () => {
    it('answers storage_unavailable with the server’s error as cause, keeps nothing, and the next transaction works', async () => {
      const storage = await openTestStorage('postgres');
      const admin = new Client({ connectionString: storage.url });
      await admin.connect();
      try {
        const clock = new FixedClock();
        const brand = await createBrand({ uow: storage.uow, clock }, { name: 'Acme', currency: 'EUR' });
        let ghostId = 0;
        const failure = storage.uow.run(async (tx) => {
          ghostId = await insertGhostBrand(tx, brand);
          // What a server restart does to every session: terminate it (57P01).
          await admin.query(
            // The app's own sessions (on Citus the database also has the superuser's background workers).
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and usename = current_user and pid <> pg_backend_pid()',
          );
          await tx.brands.findById(brand.id);
        });
        const error = await failure.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({ code: 'storage_unavailable' });
        expect(isStorageUnavailable((error as DomainError).cause)).toBe(true);

        expect(await storage.uow.read((r) => r.brands.findById(ghostId))).toBeNull();
        const after = await createBrand({ uow: storage.uow, clock }, { name: 'After the outage', currency: 'EUR' });
        expect((await storage.uow.read((r) => r.brands.findById(after.id)))?.name).toBe('After the outage');
      } finally {
        await admin.end();
        await storage.close();
      }
    });
  });

  describe('a lock held beyond the lock timeout [postgres]', () => {
    it('answers storage_unavailable instead of waiting for ever, and works once the lock is gone', async () => {
      const storage = await openTestStorage('postgres', { lockTimeoutMs: 200 });
      const holder = new Client({ connectionString: storage.url });
      await holder.connect();
      try {
        const brand = await createBrand(
          { uow: storage.uow, clock: new FixedClock() },
          { name: 'Acme', currency: 'EUR' },
        );
        await holder.query('begin');
        await holder.query('lock table brands in access exclusive mode');
        const error = await storage.uow.read((r) => r.brands.findById(brand.id)).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: 'storage_unavailable', cause: expect.objectContaining({ code: '55P03' }) });
        await holder.query('rollback');
        expect((await storage.uow.read((r) => r.brands.findById(brand.id)))?.name).toBe('Acme');
      } finally {
        await holder.end();
        await storage.close();
      }
    });
  });
}

if (testDialects().includes('sqlite')) {
  describe('a SQLite file locked beyond the busy timeout [sqlite]', () => {
    it('answers storage_unavailable at once instead of retrying the wait, and works once the lock is gone', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'brand-busy-'));
      const file = join(folder, 'brand.sqlite');
      const storage = await openStorage(file, { lockTimeoutMs: 200 });
      await storage.migrate();
      const holder = new BetterSqlite3(file);
      try {
        holder.exec('begin immediate');
        const error = await createBrand(
          { uow: storage.uow, clock: new FixedClock() },
          { name: 'Acme', currency: 'EUR' },
        ).catch((caught: unknown) => caught);
        expect(error).toMatchObject({
          code: 'storage_unavailable',
          cause: expect.objectContaining({ code: 'SQLITE_BUSY' }),
        });
        holder.exec('rollback');
        const brand = await createBrand(
          { uow: storage.uow, clock: new FixedClock() },
          { name: 'Acme', currency: 'EUR' },
        );
        expect((await storage.uow.read((r) => r.brands.findById(brand.id)))?.name).toBe('Acme');
      } finally {
        holder.close();
        await storage.close();
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
}
