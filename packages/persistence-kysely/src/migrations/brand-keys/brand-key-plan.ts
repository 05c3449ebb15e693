import { ForeignKeyModel, IndexModel, isTenantTable, TableModel } from './schema-model';

const BRAND = 'brand_id';

const withBrandFirst = (columns: readonly string[]): string[] =>
  columns.includes(BRAND) ? [...columns] : [BRAND, ...columns];

const sameColumns = (a: readonly string[] | null, b: readonly string[]): boolean =>
  a !== null && a.length === b.length && a.every((column, i) => column === b[i]);

/** A foreign key between two tenant tables, and what it becomes. */
export interface RekeyedForeignKey {
  before: ForeignKeyModel;
  after: ForeignKeyModel;
  /** False when it already named brand_id on both sides (the OAuth and webhook tables). */
  changed: boolean;
}

/** What one tenant table's keys become (DESIGN §9): brand_id leads every key. */
export interface TableKeyPlan {
  table: TableModel;
  primaryKey: string[];
  uniques: { name: string | null; before: string[]; after: string[] }[];
  /** Every foreign key of the table: to global tables unchanged, to tenant tables composite. */
  foreignKeys: RekeyedForeignKey[];
  /** Unique indexes of one global value (`users.login_email`, `api_apps.client_id`): made (brand_id, value). */
  rewrittenIndexes: { before: IndexModel; after: string[] }[];
  /** Plain indexes the new primary key makes redundant (`(brand_id, id)` keyset indexes). */
  droppedIndexes: IndexModel[];
}

/**
 * The keys of every tenant table after the migration: `(brand_id, …)` primary keys, brand_id in
 * every unique key, composite foreign keys `(brand_id, x_id) → (brand_id, id)` between tenant
 * tables. Derived from the live schema at 0016, so it is the same on every database.
 */
export function planBrandKeys(schema: readonly TableModel[]): TableKeyPlan[] {
  const tenant = new Set(schema.filter(isTenantTable).map((t) => t.name));
  return schema
    .filter((table) => tenant.has(table.name))
    .map((table) => {
      const primaryKey = withBrandFirst(table.primaryKey);
      const foreignKeys = table.foreignKeys.map((fk): RekeyedForeignKey => {
        if (!tenant.has(fk.referencedTable) || fk.columns.includes(BRAND)) {
          return { before: fk, after: fk, changed: false };
        }
        return {
          before: fk,
          after: {
            name: `${table.name}_${fk.columns.join('_')}_fkey`,
            columns: [BRAND, ...fk.columns],
            referencedTable: fk.referencedTable,
            referencedColumns: [BRAND, ...fk.referencedColumns],
            onDelete: fk.onDelete,
          },
          changed: true,
        };
      });
      const rewrittenIndexes = table.indexes
        .filter((index) => index.unique && !index.partial && index.columns && !index.columns.includes(BRAND))
        .map((index) => ({ before: index, after: withBrandFirst(index.columns!) }));
      const droppedIndexes = table.indexes.filter((index) => !index.partial && sameColumns(index.columns, primaryKey));
      return {
        table,
        primaryKey,
        uniques: table.uniques.map((u) => ({ name: u.name, before: u.columns, after: withBrandFirst(u.columns) })),
        foreignKeys,
        rewrittenIndexes,
        droppedIndexes,
      };
    });
}

/** How the table's rows are named in a report: by id, or by the columns of its old primary key. */
export function rowIdentity(table: TableModel): string[] {
  return table.columns.some((c) => c.name === 'id') ? ['id'] : table.primaryKey.filter((c) => c !== BRAND);
}
