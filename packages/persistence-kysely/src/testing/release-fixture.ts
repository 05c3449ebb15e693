import { Kysely, Migrator } from 'kysely';
import { Database } from '../database';
import { migrationProvider } from '../migrations';
import { readSchema, referencedFirst } from '../migrations/brand-keys/schema-model';
import { Dialect } from '../storage';

/** Rows of a database as a fixture holds them: every table's columns and its rows in that order. */
export interface DatabaseFixture {
  /** The last migration the rows were written under. */
  migration: string;
  tables: Record<string, { columns: string[]; rows: unknown[][] }>;
}

/** Migrates to `target` (a migration's name), or to the newest when none is given. */
export async function migrateDatabase(db: Kysely<Database>, dialect: Dialect, target?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  const { error } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migrating failed: ${JSON.stringify(error)}`);
}

/**
 * Inserts a fixture's rows into a database migrated to the fixture's migration, parents before
 * children (rows of one table in the fixture's order, so a parent category comes before its
 * children). Rows the migrations made themselves (`credentials_revision`) are left as they are.
 */
export async function loadFixture(db: Kysely<Database>, dialect: Dialect, fixture: DatabaseFixture): Promise<void> {
  const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  for (const table of referencedFirst(await readSchema(db as unknown as Kysely<unknown>, dialect))) {
    const data = fixture.tables[table];
    if (!data || data.rows.length === 0 || table === 'credentials_revision') continue;
    for (const row of data.rows)
      await untyped
        .insertInto(table)
        .values(Object.fromEntries(data.columns.map((column, i) => [column, row[i]])))
        .execute();
  }
}
