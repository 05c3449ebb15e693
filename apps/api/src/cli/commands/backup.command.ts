import { resolve } from 'node:path';
import { CliCommand } from '../cli-command';
import { formatDuration } from '../bulk-progress';

interface BackupOptions {
  file: string;
}

/**
 * `brand backup <file>`: a consistent copy of the SQLite database of `DATABASE_URL` while the
 * API goes on serving writes (DESIGN §17; SQLite's online backup through `Storage.backupTo`).
 * The copy is the database as of one instant, with every transaction committed before it; a new
 * file only. On Postgres it refuses and names the `pg_dump` command instead.
 */
export const backupCommand: CliCommand<BackupOptions> = {
  name: 'backup',
  summary: 'Copy the SQLite database to a new file while the API serves (Postgres: use pg_dump)',
  configure(command) {
    command.argument('<file>', 'the copy to write: a new file, ideally on another disk');
  },
  async run({ storage }, options) {
    const began = performance.now();
    const copy = await storage.backupTo(resolve(options.file));
    const seconds = (performance.now() - began) / 1000;
    return {
      json: { file: copy.file, pages: copy.pages, bytes: copy.bytes, seconds: Math.round(seconds * 1000) / 1000 },
      text:
        `Backed up ${copy.pages} pages (${megabytes(copy.bytes)}) to ${copy.file} in ` +
        `${seconds < 10 ? `${seconds.toFixed(2)}s` : formatDuration(seconds)}.`,
    };
  },
};

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
