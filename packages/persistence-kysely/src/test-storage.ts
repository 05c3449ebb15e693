import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ConnectionOptions } from './connection';
import { openStorage } from './open-storage';
import { Dialect, Storage } from './storage';

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

function postgresServerUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url)
    throw new Error(
      'TEST_POSTGRES_URL is not set: run the tests through `pnpm test` (it starts a throwaway Postgres) or set TEST_DIALECTS=sqlite',
    );
  return url;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A fresh, migrated, empty database for one test file: SQLite in memory, or a new Postgres
 * database on the test server that `close()` drops again.
 */
export async function openTestStorage(
  dialect: Dialect,
  options: ConnectionOptions = {},
): Promise<Storage & { url: string }> {
  if (dialect === 'sqlite') {
    const storage = await openStorage(':memory:', options);
    await storage.migrate();
    return Object.assign(storage, { url: ':memory:' });
  }
  const serverUrl = postgresServerUrl();
  const database = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, database);
  const storage = await openStorage(url, options);
  await storage.migrate();
  const close = storage.close.bind(storage);
  return Object.assign(storage, {
    url,
    async close() {
      await close();
      const dropper = new Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${database} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  });
}
