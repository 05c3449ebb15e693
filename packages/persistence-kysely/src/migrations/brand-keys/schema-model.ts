import { Kysely, sql } from 'kysely';
import { Dialect } from '../../storage';

/** A foreign key as the catalog describes it (`onDelete` in SQL words: `cascade`, `no action`, …). */
export interface ForeignKeyModel {
  name: string | null;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
}

/** An index made on its own (`create index`), not by a primary key or unique constraint. */
export interface IndexModel {
  name: string;
  unique: boolean;
  /** Plain columns in order; `null` when the index has an expression (then it is kept as it is). */
  columns: string[] | null;
  partial: boolean;
  /** SQLite: the statement that made it, replayed after a table rebuild. */
  sql: string | null;
}

export interface ColumnModel {
  name: string;
  type: string;
  notNull: boolean;
  defaultSql: string | null;
}

/** One table of the live schema: what the brand-keys migration reads before it changes anything. */
export interface TableModel {
  name: string;
  columns: ColumnModel[];
  primaryKeyName: string | null;
  primaryKey: string[];
  uniques: { name: string | null; columns: string[] }[];
  foreignKeys: ForeignKeyModel[];
  indexes: IndexModel[];
}

/**
 * Global tables that name a brand without belonging to one: `brand_lookups` maps values unique
 * across brands to their brand (a reference table on Citus, no row-level security).
 */
export const GLOBAL_TABLES_NAMING_A_BRAND: ReadonlySet<string> = new Set(['brand_lookups']);

/** A tenant table holds one brand's rows: it has a `brand_id` column and is no global look-up (DESIGN §9). */
export const isTenantTable = (table: TableModel): boolean =>
  !GLOBAL_TABLES_NAMING_A_BRAND.has(table.name) && table.columns.some((c) => c.name === 'brand_id');

/**
 * The tables' names in an order where every table comes after the tables of `tables` its foreign
 * keys reference (references outside `tables` and to itself, such as a category's parent, do not
 * count). Ties keep name order, so the output is stable. Used to distribute on Citus (a
 * referencing table only once the referenced one is placed) and to load rows parents first.
 */
export function referencedFirst(tables: readonly TableModel[]): string[] {
  const names = new Set(tables.map((t) => t.name));
  const waitingFor = new Map(
    tables.map((t) => [
      t.name,
      new Set(t.foreignKeys.map((fk) => fk.referencedTable).filter((r) => r !== t.name && names.has(r))),
    ]),
  );
  const ordered: string[] = [];
  while (waitingFor.size > 0) {
    const ready = [...waitingFor]
      .filter(([, references]) => references.size === 0)
      .map(([name]) => name)
      .sort();
    if (ready.length === 0)
      throw new Error(`foreign keys form a cycle among ${[...waitingFor.keys()].sort().join(', ')}`);
    for (const name of ready) {
      ordered.push(name);
      waitingFor.delete(name);
      for (const references of waitingFor.values()) references.delete(name);
    }
  }
  return ordered;
}

/** Kysely's own bookkeeping: never a tenant table, never rebuilt. */
const isMigratorTable = (name: string): boolean => name.startsWith('kysely_');

const PG_ON_DELETE: Record<string, string> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/** Every table of the database (Kysely's own left out), read from the live catalog. */
export function readSchema(db: Kysely<unknown>, dialect: Dialect): Promise<TableModel[]> {
  return dialect === 'postgres' ? readPostgresSchema(db) : readSqliteSchema(db);
}

async function readSqliteSchema(db: Kysely<unknown>): Promise<TableModel[]> {
  const { rows: tables } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const models: TableModel[] = [];
  for (const { name } of tables) {
    if (isMigratorTable(name)) continue;
    const { rows: columns } = await sql<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>`select * from pragma_table_info(${name})`.execute(db);
    const { rows: fkRows } = await sql<{
      id: number;
      seq: number;
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }>`select * from pragma_foreign_key_list(${name}) order by id, seq`.execute(db);
    const { rows: indexList } = await sql<{ name: string; unique: number; origin: string; partial: number }>`
      select * from pragma_index_list(${name})`.execute(db);
    const { rows: indexSql } = await sql<{ name: string; sql: string | null }>`
      select name, sql from sqlite_master where type = 'index' and tbl_name = ${name} order by rowid`.execute(db);

    const foreignKeys = new Map<number, ForeignKeyModel>();
    for (const fk of fkRows) {
      const model = foreignKeys.get(fk.id) ?? {
        name: null,
        columns: [],
        referencedTable: fk.table,
        referencedColumns: [],
        onDelete: fk.on_delete.toLowerCase(),
      };
      model.columns.push(fk.from);
      model.referencedColumns.push(fk.to);
      foreignKeys.set(fk.id, model);
    }

    const uniques: TableModel['uniques'] = [];
    const indexes: IndexModel[] = [];
    // In the order they were made (index_list answers newest first): SQLite's planner, which has
    // no statistics, breaks ties between equally good indexes by that order, so a rebuilt table
    // must keep it for its queries to keep their plans.
    const madeOrder = new Map(indexSql.map((index, position) => [index.name, position]));
    indexList.sort((a, b) => (madeOrder.get(a.name) ?? -1) - (madeOrder.get(b.name) ?? -1));
    for (const index of indexList) {
      const { rows: info } = await sql<{ name: string | null }>`
        select name from pragma_index_info(${index.name}) order by seqno`.execute(db);
      const columns = info.some((c) => c.name === null) ? null : info.map((c) => c.name!);
      if (index.origin === 'u') uniques.push({ name: null, columns: columns ?? [] });
      if (index.origin === 'c') {
        indexes.push({
          name: index.name,
          unique: index.unique === 1,
          columns,
          partial: index.partial === 1,
          sql: indexSql.find((i) => i.name === index.name)?.sql ?? null,
        });
      }
    }
    models.push({
      name,
      columns: columns.map((c) => ({ name: c.name, type: c.type, notNull: c.notnull === 1, defaultSql: c.dflt_value })),
      primaryKeyName: null,
      primaryKey: columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      uniques,
      foreignKeys: [...foreignKeys.values()],
      indexes,
    });
  }
  return models;
}

async function readPostgresSchema(db: Kysely<unknown>): Promise<TableModel[]> {
  const { rows: columns } = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }>`
    select c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
     order by c.table_name, c.ordinal_position`.execute(db);
  const { rows: constraints } = await sql<{
    table_name: string;
    name: string;
    type: 'p' | 'u' | 'f';
    columns: string[];
    referenced_table: string | null;
    referenced_columns: string[] | null;
    on_delete: string;
  }>`
    select rel.relname as table_name, con.conname as name, con.contype as type,
           array(select a.attname from unnest(con.conkey) with ordinality k(num, ord)
                   join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.ord)::text[] as columns,
           ref.relname as referenced_table,
           case when con.contype = 'f' then
             array(select a.attname from unnest(con.confkey) with ordinality k(num, ord)
                     join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.ord)::text[]
           end as referenced_columns,
           con.confdeltype as on_delete
      from pg_constraint con
      join pg_class rel on rel.oid = con.conrelid
      join pg_namespace ns on ns.oid = rel.relnamespace
      left join pg_class ref on ref.oid = con.confrelid
     where ns.nspname = current_schema() and con.contype in ('p', 'u', 'f')
     order by rel.relname, con.conname`.execute(db);
  const { rows: indexes } = await sql<{
    table_name: string;
    name: string;
    unique: boolean;
    partial: boolean;
    columns: (string | null)[];
  }>`
    select rel.relname as table_name, idx.relname as name, i.indisunique as unique, i.indpred is not null as partial,
           array(select a.attname from unnest(i.indkey::int2[]) with ordinality k(num, ord)
                   left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.num order by k.ord)::text[] as columns
      from pg_index i
      join pg_class idx on idx.oid = i.indexrelid
      join pg_class rel on rel.oid = i.indrelid
      join pg_namespace ns on ns.oid = rel.relnamespace
     where ns.nspname = current_schema()
       and not exists (select 1 from pg_constraint con where con.conindid = i.indexrelid and con.conrelid = i.indrelid)`.execute(
    db,
  );

  const models = new Map<string, TableModel>();
  for (const column of columns) {
    if (isMigratorTable(column.table_name)) continue;
    let model = models.get(column.table_name);
    if (!model) {
      model = {
        name: column.table_name,
        columns: [],
        primaryKeyName: null,
        primaryKey: [],
        uniques: [],
        foreignKeys: [],
        indexes: [],
      };
      models.set(column.table_name, model);
    }
    model.columns.push({
      name: column.column_name,
      type: column.data_type,
      notNull: column.is_nullable === 'NO',
      defaultSql: column.column_default,
    });
  }
  for (const constraint of constraints) {
    const model = models.get(constraint.table_name);
    if (!model) continue;
    if (constraint.type === 'p') {
      model.primaryKeyName = constraint.name;
      model.primaryKey = constraint.columns;
    } else if (constraint.type === 'u') {
      model.uniques.push({ name: constraint.name, columns: constraint.columns });
    } else {
      model.foreignKeys.push({
        name: constraint.name,
        columns: constraint.columns,
        referencedTable: constraint.referenced_table!,
        referencedColumns: constraint.referenced_columns!,
        onDelete: PG_ON_DELETE[constraint.on_delete] ?? 'no action',
      });
    }
  }
  for (const index of indexes) {
    const model = models.get(index.table_name);
    if (!model) continue;
    model.indexes.push({
      name: index.name,
      unique: index.unique,
      partial: index.partial,
      columns: index.columns.some((c) => c === null) ? null : (index.columns as string[]),
      sql: null,
    });
  }
  return [...models.values()];
}
