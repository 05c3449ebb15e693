import { CliCommand } from '../cli-command';

/** `brand migrate`: brings the schema up to date (every command does this first; this does only that). */
export const migrateCommand: CliCommand<Record<string, never>> = {
  name: 'migrate',
  summary: 'Bring the database schema up to date',
  configure() {},
  async run({ storage }) {
    return {
      json: { migrated: true, dialect: storage.dialect },
      text: `The ${storage.dialect === 'postgres' ? 'Postgres' : 'SQLite'} database is up to date.`,
    };
  },
};
