import { connect, parseDatabaseUrl } from './connection';
import { isTenantTable, readSchema, referencedFirst, TableModel } from './migrations/brand-keys/schema-model';

/** How the current schema distributes on Citus (DESIGN §9), read from the live catalog. */
export interface CitusDistribution {
  /** Global tables, copied to every node: `create_reference_table`. */
  referenceTables: string[];
  /** Tenant tables, sharded by brand_id and co-located, each after the tables it references. */
  distributedTables: string[];
  /** The migrator's own bookkeeping, kept on the coordinator where migrations run. */
  localTables: string[];
  /** The statements to run on the coordinator, in order. */
  statements: string[];
}

/** The distribution of a schema already read (exported for tests of the ordering). */
export function planCitusDistribution(schema: readonly TableModel[]): CitusDistribution {
  const localTables = ['kysely_migration', 'kysely_migration_lock'];
  const referenceTables = schema
    .filter((t) => !isTenantTable(t))
    .map((t) => t.name)
    .sort();
  const distributedTables = referencedFirst(schema.filter(isTenantTable));
  const quote = (name: string) => `'${name.replace(/'/g, "''")}'`;
  const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const [anchor] = distributedTables;
  // Citus distributes a table only while no local table references it, and converts every table
  // that references a new reference table into a local table of its own metadata: so the tenant
  // tables' foreign keys go first and come back once every table is placed (distributed tables
  // may then reference co-located distributed tables on brand_id, and reference tables).
  const foreignKeys = schema
    .filter(isTenantTable)
    .flatMap((table) => table.foreignKeys.filter((fk) => fk.name !== null).map((fk) => ({ table: table.name, fk })));
  const columns = (names: readonly string[]) => names.map(ident).join(', ');
  const statements = [
    `-- Kept on the coordinator (the migrator's bookkeeping): ${localTables.join(', ')}`,
    ...foreignKeys.map(({ table, fk }) => `alter table ${ident(table)} drop constraint ${ident(fk.name!)};`),
    ...referenceTables.map((t) => `select create_reference_table(${quote(t)});`),
    ...distributedTables.map((t) =>
      t === anchor
        ? `select create_distributed_table(${quote(t)}, 'brand_id');`
        : `select create_distributed_table(${quote(t)}, 'brand_id', colocate_with => ${quote(anchor!)});`,
    ),
    ...foreignKeys.map(
      ({ table, fk }) =>
        `alter table ${ident(table)} add constraint ${ident(fk.name!)} foreign key (${columns(fk.columns)}) references ${ident(
          fk.referencedTable,
        )} (${columns(fk.referencedColumns)}) on delete ${fk.onDelete};`,
    ),
  ];
  return { referenceTables, distributedTables, localTables, statements };
}

/**
 * Reads the migrated Postgres database at `databaseUrl` and answers how it distributes on Citus:
 * `pnpm brand citus-ddl` prints the statements. From the live catalog, so it can never be staler
 * than the schema.
 */
export async function readCitusDistribution(databaseUrl: string): Promise<CitusDistribution> {
  const parsed = parseDatabaseUrl(databaseUrl);
  if (parsed.dialect !== 'postgres') throw new Error('Citus distributes Postgres: DATABASE_URL must be postgres://…');
  const db = connect(parsed);
  try {
    return planCitusDistribution(await readSchema(db as never, 'postgres'));
  } finally {
    await db.destroy();
  }
}
