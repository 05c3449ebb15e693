import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from 'pg';
import { ConnectionOptions } from '../connection';
import { migrationProvider } from '../migrations';
import { openStorage } from '../open-storage';
import { createCitusTestDatabase, dropCitusTestDatabase, onCitusTestCluster } from './citus-test-databases';
import { withAdminClient, withDatabase } from './postgres-admin';
import { emptyForReuse, notePristineDatabase, reusingTestDatabases, takeIdleDatabase } from './reused-test-databases';
import { capturingStatements } from './statement-capture';
import { Dialect, Storage, StorageObserver } from '../storage';

/**
 * Dialects the test run covers: `TEST_DIALECTS` (comma-separated, default `sqlite,postgres`).
 * Postgres tests need `TEST_POSTGRES_URL` (the test command starts a throwaway server and sets it).
 */
export function testDialects(): Dialect[] {
  const wanted = (process.env.TEST_DIALECTS ?? 'sqlite,postgres')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  return wanted.filter((d): d is Dialect => d === 'sqlite' || d === 'postgres');
}

/**
 * For tests of behaviour no SQL semantics show through (the OpenAPI document, HTTP conventions,
 * the mapping of use cases onto routes whose repositories the contract suites already prove alike
 * on every adapter): the first dialect of `TEST_DIALECTS` only, SQLite by default. Whatever
 * touches SQL semantics (concurrency, locks, upserts, filters and export plans, migrations,
 * driver errors) runs on every dialect through `testDialects()`.
 */
export function oneTestDialect(): Dialect[] {
  return testDialects().slice(0, 1);
}

function postgresServerUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url)
    throw new Error(
      'TEST_POSTGRES_URL is not set: run the tests through `pnpm test` (it starts a throwaway Postgres) or set TEST_DIALECTS=sqlite',
    );
  return url;
}

/**
 * The same database as the superuser, for tests that look at every brand's rows at once (row
 * snapshots, EXPLAIN of a brand's statement with parameters filled in): the app's own role is bound
 * by row-level security. Without TEST_POSTGRES_ADMIN_URL (a server the caller started), the URL
 * as given.
 */
export function inspectionUrl(url: string): string {
  const admin = process.env.TEST_POSTGRES_ADMIN_URL;
  if (!admin || !/^postgres(ql)?:\/\//.test(url)) return url;
  const inspecting = new URL(url);
  const superuser = new URL(admin);
  inspecting.username = superuser.username;
  inspecting.password = superuser.password;
  return inspecting.toString();
}

/**
 * The migrations' names and source text: a template made by other migrations is never used.
 * (`up.toString()` is the migration function's own text, the SQL it builds included.)
 */
async function migrationsFingerprint(dialect: Dialect): Promise<string> {
  const migrations = await migrationProvider(dialect).getMigrations();
  const hash = createHash('sha256');
  for (const [name, migration] of Object.entries(migrations)) hash.update(`${name}\n${migration.up.toString()}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** Any fixed key: it only has to keep two test processes from building the template at once. */
const TEMPLATE_LOCK_KEY = 7_341_020_612;
let templateName: Promise<string> | undefined;

/**
 * The migrated, empty database that test databases are copied from: copying it is much quicker
 * than running the migrations on Postgres, and test files open well over a hundred
 * databases. Named after the migrations' fingerprint, so a template made by other migrations is
 * never used.
 */
function templateDatabaseName(): Promise<string> {
  return (templateName ??= migrationsFingerprint('postgres').then((fingerprint) => `test_template_${fingerprint}`));
}

/**
 * Builds the template unless it exists, once per server: the advisory lock keeps parallel test
 * processes from building it twice, and it is built under another name and renamed when complete,
 * so a half-built template is never copied.
 */
async function buildTemplateDatabase(admin: Client, serverUrl: string, name: string): Promise<void> {
  await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount !== 0) return;
    const building = `${name}_building`;
    await admin.query(`drop database if exists ${building} with (force)`);
    await admin.query(`create database ${building}`);
    const storage = await openStorage(withDatabase(serverUrl, building));
    try {
      await storage.migrate();
    } finally {
      await storage.close();
    }
    await admin.query(`alter database ${building} rename to ${name}`);
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
  }
}

/**
 * Creates `database` as a copy of the template (built first if the server has none), on one admin
 * connection: a new Postgres connection costs the server more CPU than the copy's statements.
 *
 * Copied file by file (`strategy file_copy`, Postgres 15 and later; earlier versions only copy
 * that way): the default since 15, `wal_log`, writes every block of the template through the
 * write-ahead log, made for large templates, and took far more of the server's CPU and wall time
 * for this small one. `file_copy` forces a checkpoint, which costs little on the test server
 * (fsync off).
 */
async function createFromTemplate(serverUrl: string, database: string): Promise<void> {
  const template = await templateDatabaseName();
  if (onCitusTestCluster()) return createCitusTestDatabase(serverUrl, coordinatorAdminUrl(), template, database);
  await withAdminClient(serverUrl, async (admin) => {
    const { rows } = await admin.query<{ template_exists: boolean; file_copy: boolean }>(
      `select exists (select 1 from pg_database where datname = $1) as template_exists,
              current_setting('server_version_num')::int >= 150000 as file_copy`,
      [template],
    );
    if (!rows[0]!.template_exists) await buildTemplateDatabase(admin, serverUrl, template);
    const strategy = rows[0]!.file_copy ? ' strategy file_copy' : '';
    await admin.query(`create database ${database} template ${template}${strategy}`);
  });
}

function coordinatorAdminUrl(): string {
  const admin = process.env.TEST_POSTGRES_ADMIN_URL;
  if (!admin) throw new Error('a Citus test run needs TEST_POSTGRES_ADMIN_URL (the coordinator as its superuser)');
  return admin;
}

/**
 * Migrated, empty SQLite databases, serialized, by the migrations' fingerprint: kept per worker
 * process rather than per test file (jest gives every file a fresh module registry, but hands out
 * Node's own core modules, so the cache hangs on one). Running the migrations took about a second
 * for every in-memory test database; opening a copy of the image takes a few milliseconds.
 */
const sqliteImages: Map<string, Promise<Buffer>> = ((holder: Record<symbol, unknown>) => {
  const key = Symbol.for('brand.test.migratedSqliteImages');
  return (holder[key] ??= new Map<string, Promise<Buffer>>()) as Map<string, Promise<Buffer>>;
})(os);

async function migratedSqliteImage(): Promise<Buffer> {
  const fingerprint = await migrationsFingerprint('sqlite');
  let image = sqliteImages.get(fingerprint);
  if (!image) {
    image = (async () => {
      const folder = mkdtempSync(join(tmpdir(), 'brand-sqlite-template-'));
      const file = join(folder, 'template.sqlite');
      try {
        const storage = await openStorage(file);
        await storage.migrate();
        await storage.close();
        const sqlite = new BetterSqlite3(file);
        try {
          // An in-memory copy cannot be in WAL mode: the image says rollback journal.
          sqlite.pragma('journal_mode = delete');
          return sqlite.serialize();
        } finally {
          sqlite.close();
        }
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    })();
    sqliteImages.set(fingerprint, image);
  }
  return image;
}

/**
 * A fresh, migrated, empty database for one test file: SQLite in memory, or a Postgres database
 * on the test server at the template's state that `close()` drops again (or, on the test
 * command's throwaway server, empties and keeps for the next file: reused-test-databases.ts).
 */
export async function openTestStorage(
  dialect: Dialect,
  options: ConnectionOptions & { observer?: StorageObserver } = {},
): Promise<Storage & { url: string }> {
  if (dialect === 'sqlite') {
    const storage = await openStorage(':memory:', { ...options, sqliteImage: await migratedSqliteImage() });
    return Object.assign(storage, { url: ':memory:' });
  }
  const serverUrl = postgresServerUrl();
  const reusing = reusingTestDatabases() && !onCitusTestCluster();
  // As the superuser when there is one: inspecting connections (snapshots) may still be open when
  // the storage closes, and only a superuser may end a superuser's connection.
  const adminUrl = inspectionUrl(serverUrl);
  const database =
    (reusing ? await takeIdleDatabase(adminUrl) : undefined) ??
    (await (async () => {
      const fresh = `test_${randomBytes(6).toString('hex')}`;
      await createFromTemplate(serverUrl, fresh);
      if (reusing) await notePristineDatabase(adminUrl, fresh);
      return fresh;
    })());
  const url = withDatabase(serverUrl, database);
  // Not migrated again: the template's name carries the fingerprint of every migration, so the
  // copy is at the latest one, and the migrator would read the whole catalog (every column of
  // every table, twice) only to find nothing to do.
  // The statement test (statement-brand-check.test.ts) reads what every Postgres test storage sent.
  const log = capturingStatements(options.log);
  const storage = await openStorage(url, log ? { ...options, log } : options);
  const close = storage.close.bind(storage);
  let closing: Promise<void> | undefined;
  const closeAndDispose = async (): Promise<void> => {
    await close();
    if (onCitusTestCluster()) return dropCitusTestDatabase(coordinatorAdminUrl(), database);
    if (reusing && (await emptyForReuse(adminUrl, database))) return;
    await withAdminClient(adminUrl, (admin) => admin.query(`drop database if exists ${database} with (force)`));
  };
  return Object.assign(storage, {
    url,
    // Once only: a second close must not hand a database another file may already hold back to
    // the pool, nor drop it under that file.
    close: () => (closing ??= closeAndDispose()),
  });
}
