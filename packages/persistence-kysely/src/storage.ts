import { UnitOfWork } from '@brand/core';
import type { BackupCopy } from './sqlite-backup';

export type { BackupCopy };

export type Dialect = 'sqlite' | 'postgres';

/** A fixed-window counter shared by every process on the same database (rate limiting). */
export interface RateLimitCounters {
  /**
   * Counts `count` hits (default 1) on `key` in the window containing `nowMs`, in one atomic
   * statement; returns the hits so far (these included) and when the window ends.
   */
  hit(key: string, windowMs: number, nowMs: number, count?: number): Promise<{ hits: number; resetAtMs: number }>;
  reset(key: string): Promise<void>;
}

/** Named secrets made once and shared by every process (e.g. the key that signs list cursors). */
export interface SharedSecrets {
  /** Returns the secret named `name`, creating it with `make()` if no process has yet. */
  getOrCreate(name: string, make: () => string): Promise<string>;
}

/**
 * An open database: the core's unit of work plus the few infrastructure stores the API needs.
 * @example
 * const storage = await openStorage(process.env.DATABASE_URL ?? './data/brand.sqlite');
 * await storage.migrate();
 * await createBrand({ uow: storage.uow, clock: systemClock }, { name: 'Acme', currency: 'EUR' });
 * await storage.close();
 */
/**
 * What the storage tells an observer (the server's metrics) about its work; every callback is
 * optional, and a storage opened without one pays nothing for it.
 */
export interface StorageObserver {
  /** A unit of work lost a write race (a serialization failure, a deadlock) and runs again. */
  transactionRetried?(): void;
  /** A unit of work committed having written events of these types, one entry per event. */
  eventsCommitted?(types: readonly string[]): void;
  /**
   * A SQL statement ran (tracing): its text with placeholders, never the bound values, how long
   * it took and what it failed with, told right after it in the async context of its caller.
   * Without this callback the statements pay nothing for it (on SQLite they keep the lane).
   */
  statementRan?: StatementObserver;
}

/** Told of each SQL statement after it ran (see `StorageObserver.statementRan`). */
export type StatementObserver = (sql: string, durationMs: number, error?: unknown) => void;

export interface Storage {
  readonly dialect: Dialect;
  readonly uow: UnitOfWork;
  readonly rateLimits: RateLimitCounters;
  readonly secrets: SharedSecrets;
  /** Brings the schema to the newest migration; safe to run from several processes at once. */
  migrate(): Promise<void>;
  /** Whether the database answers (health checks). */
  ping(): Promise<boolean>;
  /**
   * The migrations this build knows that the database has not run (readiness: a process whose
   * schema is behind would fail on the first query that needs a new column). Reads the
   * migrator's table; throws what the driver throws when the database does not answer.
   */
  pendingMigrations(): Promise<string[]>;
  /**
   * Whether the role it connects as passes over row-level security (a Postgres superuser or a
   * BYPASSRLS role): then only the queries keep brands apart, and the server says so at start
   * (DESIGN §9). Always false on SQLite, which has none.
   */
  bypassesRowSecurity(): Promise<boolean>;
  /**
   * Writes a consistent copy of a SQLite database to `file` (a new file) while other processes go
   * on serving writes: SQLite's online backup, the database as of one instant (`brand backup`).
   * Blocks the calling process for the copy. Rejects on Postgres, whose backups are `pg_dump`'s
   * job (the message gives the command), and on an in-memory database, which no other process sees.
   */
  backupTo(file: string): Promise<BackupCopy>;
  close(): Promise<void>;
}
