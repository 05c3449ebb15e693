import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Clock, PasswordHasher, SecretHasher, systemClock } from '@brand/core';
import { openStorage, parseDatabaseUrl, Storage } from '@brand/persistence-kysely';
import { DEFAULT_CONFIG } from '../config';
import { nodePasswordHasher } from '../infrastructure/node-password-hasher';
import { nodeSecretHasher } from '../infrastructure/node-secret-hasher';

/** The environment the CLI reads (`process.env` in production, a plain object in tests). */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/** What every command runs with: an open, migrated database and the ports the use cases take. */
export interface CliContext {
  storage: Storage;
  clock: Clock;
  hasher: SecretHasher;
  passwordHasher: PasswordHasher;
  env: CliEnv;
  /** A terminal to draw live progress on, when the CLI runs on one (see `CliIo.terminal`). */
  terminal?: NodeJS.WritableStream | null;
}

/** Ports a caller may swap (an embedding service, or tests that hash passwords at a low cost). */
export type CliPorts = Partial<Pick<CliContext, 'passwordHasher'>>;

/** `DATABASE_URL` exactly as the server reads it, with the same default. */
export function databaseUrlFrom(env: CliEnv): string {
  const value = env.DATABASE_URL?.trim();
  return value === undefined || value === '' ? DEFAULT_CONFIG.databaseUrl : value;
}

/**
 * Creates the folder of a SQLite database file (SQLite creates the file, not its folder), so
 * the default `./data/brand.sqlite` works on a fresh checkout. Postgres and `:memory:` need nothing.
 */
export function ensureDatabaseDirectory(databaseUrl: string): void {
  const { dialect, location } = parseDatabaseUrl(databaseUrl);
  if (dialect !== 'sqlite' || location === ':memory:' || location.startsWith('file:')) return;
  mkdirSync(dirname(resolve(location)), { recursive: true });
}

/**
 * Opens the database named by `DATABASE_URL`, brings its schema up to date (idempotent, so every
 * command can start with it) and hands the context to `work`; the connection is closed
 * afterwards whatever happens, so the process can exit on its own.
 */
export async function withCliContext<T>(
  env: CliEnv,
  work: (context: CliContext) => Promise<T>,
  ports: CliPorts = {},
): Promise<T> {
  const databaseUrl = databaseUrlFrom(env);
  ensureDatabaseDirectory(databaseUrl);
  // One command runs one use case at a time: a small pool is plenty.
  const storage = await openStorage(databaseUrl, { poolSize: 2 });
  try {
    await storage.migrate();
    return await work({
      storage,
      clock: systemClock,
      hasher: nodeSecretHasher,
      passwordHasher: ports.passwordHasher ?? nodePasswordHasher,
      env,
    });
  } finally {
    await storage.close();
  }
}
