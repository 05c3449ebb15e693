import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

/** What a backup wrote. */
export interface BackupCopy {
  /** The copy's file, as given. */
  file: string;
  /** Database pages copied (SQLite's page count of the source at the moment of the copy). */
  pages: number;
  /** The copy's size on disk. */
  bytes: number;
}

/**
 * Pages per step of the online backup. better-sqlite3 copies 100 pages per turn of the event loop
 * by default, and SQLite starts a backup over whenever another connection writes to the source
 * between two steps: under a steady stream of orders from the server's process, a copy in small
 * steps may never finish. One step holds one read transaction for the whole copy instead, which
 * in WAL mode blocks no writer, and the copy is the database as of that transaction's start.
 */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database behind `sqlite` to `file` with SQLite's online backup API, while
 * other connections (the API's processes) go on writing. The copy is written under a temporary
 * name beside `file` and renamed once complete, so `file` is either a whole, consistent database
 * or absent; a failed copy leaves nothing behind. An existing `file` is refused, never replaced.
 *
 * The one step runs synchronously on the calling thread for as long as the copy takes: meant for
 * a process of its own (the CLI), not for a server's event loop.
 */
export async function backupSqlite(sqlite: BetterSqlite3.Database, file: string): Promise<BackupCopy> {
  if (existsSync(file)) throw new Error(`${file} already exists: a backup never replaces a file; name a new one`);
  if (!existsSync(dirname(file))) throw new Error(`${dirname(file)} does not exist: create the backup's folder first`);
  const partial = `${file}.partial-${process.pid}`;
  try {
    const { totalPages } = await sqlite.backup(partial, { progress: () => ALL_PAGES });
    renameSync(partial, file);
    return { file, pages: totalPages, bytes: statSync(file).size };
  } catch (error) {
    // The destination is written in rollback-journal mode, which may leave a journal beside it.
    for (const leftover of [partial, `${partial}-journal`]) rmSync(leftover, { force: true });
    throw error;
  }
}
