import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dialect, openStorage, Storage } from '@brand/persistence-kysely';
import { openTestStorage } from '@brand/persistence-kysely/testing';
import { ensureDatabaseDirectory } from '../../src/cli/open-cli-context';
import { runCli } from '../../src/cli/run-cli';
import { testPasswordHasher } from '../support/test-password-hasher';

/** A database the CLI can open again and again (each command opens its own connection). */
export interface CliTestDatabase {
  /** What the CLI gets as DATABASE_URL. */
  url: string;
  /** A migrated connection of the test's own, to check what the commands wrote (opened on first use). */
  storage(): Promise<Storage>;
  close(): Promise<void>;
}

/**
 * SQLite: a file inside a folder that does not exist yet (the CLI has to create it).
 * Postgres: a fresh database on the test server, dropped on close.
 */
export async function openCliTestDatabase(dialect: Dialect): Promise<CliTestDatabase> {
  if (dialect === 'postgres') {
    const storage = await openTestStorage('postgres');
    return { url: storage.url, storage: async () => storage, close: () => storage.close() };
  }
  const folder = mkdtempSync(join(tmpdir(), 'brand-cli-'));
  const url = join(folder, 'data', 'brand.sqlite');
  let opened: Promise<Storage> | null = null;
  const storage = (): Promise<Storage> =>
    (opened ??= (async () => {
      ensureDatabaseDirectory(url);
      const storage = await openStorage(url);
      await storage.migrate();
      return storage;
    })());
  return {
    url,
    storage,
    async close() {
      if (opened) await (await opened).close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process against `databaseUrl` and captures what it prints (passwords hashed at the tests' low cost). */
export async function brand(databaseUrl: string, ...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    argv,
    { DATABASE_URL: databaseUrl },
    {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
    },
    { passwordHasher: testPasswordHasher },
  );
  return { code, stdout, stderr };
}

/** Runs a `--json` command that must succeed and returns the one JSON object it printed. */
export async function brandJson(databaseUrl: string, ...argv: string[]): Promise<Record<string, unknown>> {
  const run = await brand(databaseUrl, ...argv, '--json');
  if (run.code !== 0) throw new Error(`brand ${argv.join(' ')} exited with ${run.code}: ${run.stderr}`);
  expect(run.stderr).toBe('');
  return parseSingleJsonObject(run.stdout);
}

/** stdout must be exactly one JSON object (one line) and nothing else. */
export function parseSingleJsonObject(stdout: string): Record<string, unknown> {
  expect(stdout.endsWith('\n')).toBe(true);
  expect(stdout.trimEnd().split('\n')).toHaveLength(1);
  const value: unknown = JSON.parse(stdout);
  expect(value).toEqual(expect.any(Object));
  expect(Array.isArray(value)).toBe(false);
  return value as Record<string, unknown>;
}
