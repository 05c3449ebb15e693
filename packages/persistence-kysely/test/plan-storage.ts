import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, LogEvent } from 'kysely';
import { connectKysely, Database, openStorage, parseDatabaseUrl, Storage } from '../src';
import { Dialect } from '../src/storage';
import { inspectionUrl, openTestStorage } from '../src/testing';

/** A statement a plan test captured, to EXPLAIN it with its own parameters. */
export interface CapturedStatement {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * What the plan tests run on: a migrated storage whose every statement is appended to `captured`,
 * and a raw connection to EXPLAIN them on. On SQLite a file (a second connection has to reach
 * the same database); on Postgres the test database as the superuser, whom row-level security
 * does not hold to one brand. `close` ends both and removes the file.
 */
export async function openPlanStorage(
  dialect: Dialect,
  name: string,
  captured: CapturedStatement[],
): Promise<{ storage: Storage; raw: Kysely<Database>; close: () => Promise<void> }> {
  const options = {
    log: (event: LogEvent) => {
      if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  };
  if (dialect === 'sqlite') {
    const file = join(tmpdir(), `${name}-${process.pid}-${Date.now()}.sqlite`);
    const storage = await openStorage(file, options);
    await storage.migrate();
    const raw = connectKysely(parseDatabaseUrl(file));
    return {
      storage,
      raw,
      close: async () => {
        await raw.destroy();
        await storage.close();
        for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      },
    };
  }
  const storage = await openTestStorage(dialect, options);
  const raw = connectKysely(parseDatabaseUrl(inspectionUrl(storage.url)));
  return {
    storage,
    raw,
    close: async () => {
      await raw.destroy();
      await storage.close();
    },
  };
}
