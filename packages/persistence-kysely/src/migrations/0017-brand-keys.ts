import { Kysely, Migration, RawBuilder, sql } from 'kysely';
import { Dialect } from '../storage';
import { planBrandKeys, TableKeyPlan } from './brand-keys/brand-key-plan';
import { BrandMismatchError, findBrandMismatches } from './brand-keys/brand-mismatches';
import { createGlobalLookups } from './brand-keys/global-lookups';
import { ForeignKeyModel, readSchema } from './brand-keys/schema-model';

const columnList = (columns: readonly string[]): RawBuilder<unknown> =>
  sql.join(columns.map((column) => sql.ref(column)));

const foreignKeyClause = (fk: ForeignKeyModel): RawBuilder<unknown> =>
  sql`foreign key (${columnList(fk.columns)}) references ${sql.table(fk.referencedTable)} (${columnList(
    fk.referencedColumns,
  )}) on delete ${sql.raw(fk.onDelete)}`;

/**
 * Tenancy kept by the database (DESIGN §9, issue 33): every tenant table's primary key leads with
 * brand_id, every unique key includes it, every foreign key between tenant tables is composite
 * `(brand_id, x_id) → (brand_id, id)`, so a row of one brand can no longer point at another
 * brand's row; the five values that are unique across brands move their uniqueness into
 * `brand_lookups`. Ids are unchanged.
 *
 * Existing databases migrate in place with nothing lost. Before touching anything it looks for rows
 * whose brand disagrees with their parent's and stops with a report naming them. Postgres alters
 * the constraints in the migrator's transaction; SQLite cannot alter keys, so every tenant table is
 * rebuilt (create, copy, drop, rename, indexes again) in one transaction with foreign keys off,
 * then `foreign_key_check` and `integrity_check` must come back clean or nothing commits.
 */
export function brandKeysMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const plans = planBrandKeys(await readSchema(db, dialect));
      const mismatches = await findBrandMismatches(db, plans);
      if (mismatches.length > 0) throw new BrandMismatchError(mismatches);
      if (dialect === 'postgres') {
        await rekeyPostgres(db, plans);
        await createGlobalLookups(db, dialect);
      } else {
        await rebuildSqlite(db, plans);
      }
    },
    async down() {
      throw new Error('The brand keys migration cannot be undone');
    },
  };
}

async function rekeyPostgres(db: Kysely<unknown>, plans: readonly TableKeyPlan[]): Promise<void> {
  const tenantTables = new Set(plans.map((p) => p.table.name));
  // Foreign keys between tenant tables depend on the keys about to change: all go, all come back.
  for (const plan of plans) {
    for (const { before } of plan.foreignKeys) {
      if (!tenantTables.has(before.referencedTable)) continue;
      await sql`alter table ${sql.table(plan.table.name)} drop constraint ${sql.ref(before.name!)}`.execute(db);
    }
  }
  for (const plan of plans) {
    const table = sql.table(plan.table.name);
    if (plan.primaryKey.join() !== plan.table.primaryKey.join()) {
      const name = sql.ref(plan.table.primaryKeyName!);
      await sql`alter table ${table} drop constraint ${name}, add constraint ${name} primary key (${columnList(
        plan.primaryKey,
      )})`.execute(db);
    }
    for (const unique of plan.uniques) {
      if (unique.after.join() === unique.before.join()) continue;
      const name = sql.ref(unique.name!);
      await sql`alter table ${table} drop constraint ${name}, add constraint ${name} unique (${columnList(
        unique.after,
      )})`.execute(db);
    }
    for (const index of plan.droppedIndexes) await sql`drop index ${sql.ref(index.name)}`.execute(db);
    for (const { before, after } of plan.rewrittenIndexes) {
      await sql`drop index ${sql.ref(before.name)}`.execute(db);
      await sql`create unique index ${sql.ref(before.name)} on ${table} (${columnList(after)})`.execute(db);
    }
  }
  for (const plan of plans) {
    for (const { after } of plan.foreignKeys) {
      if (!tenantTables.has(after.referencedTable)) continue;
      await sql`alter table ${sql.table(plan.table.name)} add constraint ${sql.ref(after.name!)} ${foreignKeyClause(
        after,
      )}`.execute(db);
    }
  }
}

/** The CREATE TABLE of a tenant table with its new keys, under a temporary name. */
function rebuiltTableDefinition(plan: TableKeyPlan, name: string): RawBuilder<unknown> {
  const primaryKey = new Set(plan.primaryKey);
  const columns = plan.table.columns.map((column) => {
    // A primary key column of a rowid table may hold NULL in SQLite unless it says NOT NULL.
    const notNull = column.notNull || primaryKey.has(column.name) ? sql` not null` : sql``;
    const fallback = column.defaultSql === null ? sql`` : sql` default ${sql.raw(column.defaultSql)}`;
    return sql`${sql.ref(column.name)} ${sql.raw(column.type || 'blob')}${notNull}${fallback}`;
  });
  const constraints = [
    sql`primary key (${columnList(plan.primaryKey)})`,
    ...plan.uniques.map((unique) => sql`unique (${columnList(unique.after)})`),
    ...plan.foreignKeys.map(({ after }) => foreignKeyClause(after)),
  ];
  return sql`create table ${sql.table(name)} (${sql.join([...columns, ...constraints])})`;
}

async function rebuildSqlite(db: Kysely<unknown>, plans: readonly TableKeyPlan[]): Promise<void> {
  // Outside a transaction: SQLite ignores this pragma inside one. The migrator runs SQLite
  // migrations without a transaction, on one connection, so the BEGIN below is the only one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      for (const plan of plans) {
        const table = plan.table.name;
        const rebuilt = `${table}__rekeyed`;
        const columns = columnList(plan.table.columns.map((c) => c.name));
        await rebuiltTableDefinition(plan, rebuilt).execute(db);
        await sql`insert into ${sql.table(rebuilt)} (${columns}) select ${columns} from ${sql.table(table)}`.execute(
          db,
        );
        await sql`drop table ${sql.table(table)}`.execute(db);
        await sql`alter table ${sql.table(rebuilt)} rename to ${sql.table(table)}`.execute(db);
        const dropped = new Set(plan.droppedIndexes.map((index) => index.name));
        for (const index of plan.table.indexes) {
          if (dropped.has(index.name)) continue;
          const rewritten = plan.rewrittenIndexes.find((r) => r.before.name === index.name);
          if (rewritten) {
            await sql`create unique index ${sql.ref(index.name)} on ${sql.table(table)} (${columnList(
              rewritten.after,
            )})`.execute(db);
          } else if (index.sql) {
            await sql.raw(index.sql).execute(db);
          }
        }
      }
      await createGlobalLookups(db, 'sqlite');
      const { rows: broken } = await sql<Record<string, unknown>>`select * from pragma_foreign_key_check`.execute(db);
      if (broken.length > 0) {
        throw new Error(`brand keys: foreign_key_check found ${broken.length} broken reference(s) after the rebuild`);
      }
      const { rows: integrity } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      if (integrity.length !== 1 || integrity[0]!.integrity_check !== 'ok') {
        throw new Error(`brand keys: integrity_check failed: ${integrity.map((r) => r.integrity_check).join('; ')}`);
      }
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
  // The rebuild wrote every table once more through the write-ahead log, which keeps its size
  // for reuse: give that disk space back now rather than hold a copy of the database's size.
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
}
