import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, sql } from 'kysely';
import { ConnectionOptions, openConnection, parseDatabaseUrl } from './connection';
import { Database } from './database';
import { migrationProvider } from './migrations';
import { RateLimitCounters, SharedSecrets, Storage, StorageObserver } from './storage';
import { KyselyUnitOfWork } from './unit-of-work';
import { hitCounter, resetCounter } from './repositories/rate-limit-counters';
import { translatingDriverErrors } from './storage-errors';
import { backupSqlite } from './sqlite-backup';

/** The Postgres equivalent of `brand backup`, as docs/operations.md gives it. */
export const POSTGRES_BACKUP_HINT =
  'backup copies a SQLite database; back up Postgres with pg_dump, as a role that bypasses row-level security ' +
  "(the superuser or a BYPASSRLS role: the API's role sees no rows without a brand): " +
  'pg_dump --format=custom --file=brand.dump "postgres://USER@HOST:5432/DATABASE"';

function rateLimitCounters(db: Kysely<Database>): RateLimitCounters {
  return {
    hit: (key, windowMs, nowMs, count = 1) =>
      translatingDriverErrors(() => hitCounter(db, key, windowMs, nowMs, count)),
    reset: (key) => translatingDriverErrors(() => resetCounter(db, key)),
  };
}

function sharedSecrets(db: Kysely<Database>): SharedSecrets {
  return {
    getOrCreate: (name, make) =>
      translatingDriverErrors(async () => {
        // Whichever process inserts first wins; everyone then reads the same value.
        await db
          .insertInto('shared_secrets')
          .values({ name, value: make() })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
        const row = await db
          .selectFrom('shared_secrets')
          .select('value')
          .where('name', '=', name)
          .executeTakeFirstOrThrow();
        return row.value;
      }),
  };
}

/**
 * Opens the database named by a `DATABASE_URL` (a SQLite file path, `sqlite:<path>`, `:memory:`
 * or `postgres://…`). Call `migrate()` before first use.
 */
export async function openStorage(
  databaseUrl: string,
  options: ConnectionOptions & { observer?: StorageObserver } = {},
): Promise<Storage> {
  const parsed = parseDatabaseUrl(databaseUrl);
  const statementRan = options.observer?.statementRan;
  const { db, lane, sqlite } = openConnection(
    parsed,
    statementRan ? { ...options, observeStatements: statementRan } : options,
  );
  const dialect = parsed.dialect;
  let pingStatement: BetterSqlite3.Statement | undefined;
  return {
    dialect,
    uow: new KyselyUnitOfWork(db, dialect, lane, undefined, options.observer),
    rateLimits: rateLimitCounters(db),
    secrets: sharedSecrets(db),
    async migrate() {
      const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
      const { error, results } = await migrator.migrateToLatest();
      if (error) {
        const failed = results?.find((r) => r.status === 'Error');
        throw new Error(
          `migration ${failed?.migrationName ?? '(unknown)'} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
        );
      }
    },
    async ping() {
      try {
        // SQLite: on the handle itself, not through the lane. The one connection may be lent to
        // a transaction waiting for its next statement (a group of orders), and a probe queued
        // behind it answers as late as the slowest commit. `select 1` reads no table, so it
        // changes nothing of a transaction it lands in; it fails once the handle is closed.
        if (sqlite !== undefined) (pingStatement ??= sqlite.prepare('select 1').pluck()).get();
        else await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    async pendingMigrations() {
      const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
      const migrations = await migrator.getMigrations();
      return migrations.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
    },
    async bypassesRowSecurity() {
      if (dialect !== 'postgres') return false;
      const { rows } = await sql<{ bypasses: boolean }>`
        select rolsuper or rolbypassrls as bypasses from pg_roles where rolname = current_user`.execute(db);
      return rows[0]?.bypasses === true;
    },
    async backupTo(file) {
      if (sqlite === undefined) throw new Error(POSTGRES_BACKUP_HINT);
      if (parsed.location === ':memory:' || sqlite.memory)
        throw new Error('backup needs a database file: an in-memory database lives only in its own process');
      return backupSqlite(sqlite, file);
    },
    async close() {
      await db.destroy();
      lane?.committedReads?.close();
      // The query builder closes the handle only if it ever ran a statement on it.
      if (sqlite?.open) sqlite.close();
    },
  };
}

/** The Kysely instance behind a storage, for benchmarks and tools that need raw access. */
export type { Database };
