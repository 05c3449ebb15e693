import { DomainError } from '@brand/core';
import { isStalePreparedStatement } from './prepared-statements';

interface DriverError {
  code?: unknown;
  message?: unknown;
}

function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as DriverError).code === 'string'
    ? ((error as DriverError).code as string)
    : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : '';
}

/**
 * Write conflicts that a fresh attempt of the same transaction resolves: a unique key taken by a
 * concurrent transaction, a serialization failure or deadlock (Postgres), a WAL snapshot that
 * moved under a reader turning writer (SQLite); and a kept statement whose prepared plan a
 * migration made stale (prepared-statements.ts), which the next attempt prepares anew. A plain SQLITE_BUSY is not among them: with
 * `busy_timeout` set it means the lock was not had within the whole timeout already, and five
 * more waits of that length would only hold the request longer (see `isStorageUnavailable`).
 */
export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  if (isStalePreparedStatement(error)) return true;
  return [
    '23505',
    '40001',
    '40P01',
    'SQLITE_BUSY_SNAPSHOT',
    'SQLITE_CONSTRAINT_UNIQUE',
    'SQLITE_CONSTRAINT_PRIMARYKEY',
  ].includes(code);
}

/** Driver errors that mean "something still refers to this row". */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Postgres SQLSTATEs (and classes, by their first two characters) that say the server cannot do
 * the work now, whatever the request: connection exceptions (08), insufficient resources such as
 * a full disk or too many connections (53), the server shutting down, crashed or starting up
 * (57P01–57P03), an I/O error (58), a read-only server (25006, a standby or
 * `default_transaction_read_only`), a lock or statement timeout (55P03, 57014).
 */
const POSTGRES_UNAVAILABLE_CLASSES = ['08', '53', '58'];
const POSTGRES_UNAVAILABLE_CODES = ['57P01', '57P02', '57P03', '25006', '55P03', '57014'];

/** Socket-level failures on the way to the server (node's `errno` codes). */
const NETWORK_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
];

/**
 * SQLite result codes (better-sqlite3 names extended codes, e.g. SQLITE_IOERR_WRITE, so these are
 * prefixes): the disk is full, an I/O error, the file is read-only or cannot be opened, the
 * database stayed locked beyond `busy_timeout`, memory ran out.
 */
const SQLITE_UNAVAILABLE_PREFIXES = [
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_NOMEM',
  'SQLITE_PROTOCOL',
];

/**
 * node-postgres reports a lost connection and an exhausted connect timeout by message only (no
 * code): the server went away mid-query, the client was broken by an earlier connection error,
 * or no connection could be had in time.
 */
const POSTGRES_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Cannot use a pool after calling end/,
];

/**
 * Whether a driver error means the storage cannot serve requests for now (unreachable,
 * restarting, full, read-only, busy beyond its timeout), as opposed to a problem with this
 * particular request or a bug. Such requests are worth retrying later; they answer 503.
 */
export function isStorageUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== '') {
    if (code.startsWith('SQLITE_'))
      return code !== 'SQLITE_BUSY_SNAPSHOT' && SQLITE_UNAVAILABLE_PREFIXES.some((prefix) => code.startsWith(prefix));
    if (NETWORK_CODES.includes(code)) return true;
    if (code.length === 5)
      return POSTGRES_UNAVAILABLE_CODES.includes(code) || POSTGRES_UNAVAILABLE_CLASSES.includes(code.slice(0, 2));
  }
  const message = messageOf(error);
  return POSTGRES_CONNECTION_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * Translates driver errors the core knows about into core errors; others pass through unchanged.
 * A `storage_unavailable` error keeps the driver's error as its `cause`, which is what the API
 * logs (the core error's own message is what the client sees).
 */
export function translateDriverError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  if (isForeignKeyViolation(error)) return new DomainError('has_dependents', 'other data still refers to this record');
  if (isStorageUnavailable(error))
    return new DomainError('storage_unavailable', 'The database cannot serve this request right now; retry later', {
      cause: error,
    });
  return error;
}

/** Runs a storage call outside the unit of work (rate-limit counters, shared secrets) with the same translation. */
export async function translatingDriverErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translateDriverError(error);
  }
}
