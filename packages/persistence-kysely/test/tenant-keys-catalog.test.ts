import { Kysely, Migrator, sql } from 'kysely';
import { connectKysely, Database, parseDatabaseUrl } from '../src';
import { migrationProvider } from '../src/migrations';
import { isTenantTable, readSchema, TableModel } from '../src/migrations/brand-keys/schema-model';
import { openTestStorage, testDialects } from '../src/testing';

/**
 * DESIGN §9 read back from the live catalog of a migrated database, so a table added later cannot
 * slip past the rules: every tenant table (one with a brand_id column) keys on brand_id, every
 * unique key and every index includes it, and every foreign key to another tenant table carries it
 * on both sides.
 */
function keyViolations(schema: readonly TableModel[]): string[] {
  const tenant = new Set(schema.filter(isTenantTable).map((t) => t.name));
  const violations: string[] = [];
  for (const table of schema.filter(isTenantTable)) {
    if (table.primaryKey[0] !== 'brand_id')
      violations.push(`${table.name}: primary key (${table.primaryKey.join(', ')}) does not lead with brand_id`);
    for (const unique of table.uniques) {
      if (!unique.columns.includes('brand_id'))
        violations.push(`${table.name}: unique key (${unique.columns.join(', ')}) lacks brand_id`);
    }
    // Every index, not only the unique ones: every statement names its brand, and an index without
    // brand_id left SQLite's planner the key's brand_id prefix to take instead (migration 0019).
    for (const index of table.indexes) {
      if (index.columns !== null && !index.columns.includes('brand_id'))
        violations.push(`${table.name}: ${index.unique ? 'unique ' : ''}index ${index.name} lacks brand_id`);
    }
    for (const fk of table.foreignKeys) {
      if (!tenant.has(fk.referencedTable)) continue;
      const at = fk.columns.indexOf('brand_id');
      if (at === -1 || fk.referencedColumns[at] !== 'brand_id')
        violations.push(
          `${table.name}: foreign key (${fk.columns.join(', ')}) → ${fk.referencedTable} (${fk.referencedColumns.join(', ')}) is not on brand_id`,
        );
    }
  }
  return violations;
}

for (const dialect of testDialects()) {
  describe(`tenant keys in the live catalog [${dialect}]`, () => {
    let close: () => Promise<void>;
    let schema: TableModel[];
    let db: Kysely<Database>;

    beforeAll(async () => {
      if (dialect === 'sqlite') {
        // One connection holds an in-memory database, so it is migrated here rather than opened twice.
        db = connectKysely(parseDatabaseUrl(':memory:'));
        const { error } = await new Migrator({ db, provider: migrationProvider('sqlite') }).migrateToLatest();
        if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
        close = () => db.destroy();
      } else {
        const storage = await openTestStorage('postgres');
        db = connectKysely(parseDatabaseUrl(storage.url));
        close = async () => {
          await db.destroy();
          await storage.close();
        };
      }
      schema = await readSchema(db as unknown as Kysely<unknown>, dialect);
    });
    afterAll(() => close());

    it('has tenant tables to check', () => {
      expect(schema.filter(isTenantTable).length).toBeGreaterThanOrEqual(60);
    });

    it('keys every tenant table on brand_id, in its primary, unique and foreign keys', () => {
      expect(keyViolations(schema)).toEqual([]);
    });

    if (dialect === 'postgres') {
      it('has row-level security enabled and forced on every tenant table, with the brand policy', async () => {
        const { rows } = await sql<{ relname: string; enabled: boolean; forced: boolean; policies: string[] }>`
          select c.relname, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
                 array(select p.polname || ': ' || pg_get_expr(p.polqual, p.polrelid) || ' / ' || pg_get_expr(p.polwithcheck, p.polrelid)
                         from pg_policy p where p.polrelid = c.oid order by p.polname)::text[] as policies
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = current_schema() and c.relkind = 'r'`.execute(db);
        const byTable = new Map(rows.map((r) => [r.relname, r]));
        const policy =
          "brand_isolation: (brand_id = (NULLIF(current_setting('brand.id'::text, true), ''::text))::bigint) / (brand_id = (NULLIF(current_setting('brand.id'::text, true), ''::text))::bigint)";
        const broken = schema
          .filter(isTenantTable)
          .map((t) => byTable.get(t.name)!)
          .filter((r) => !r.enabled || !r.forced || r.policies.join('; ') !== policy)
          .map((r) => r.relname);
        expect(broken).toEqual([]);
        // Global tables hold no brand's business rows: no row-level security there.
        expect(byTable.get('brands')!.enabled).toBe(false);
        expect(byTable.get('brand_lookups')!.enabled).toBe(false);
      });
    }

    it('finds a key without brand_id (the check can fail)', () => {
      const loose: TableModel = {
        name: 'loose_lines',
        columns: [
          { name: 'id', type: 'bigint', notNull: true, defaultSql: null },
          { name: 'brand_id', type: 'bigint', notNull: true, defaultSql: null },
        ],
        primaryKeyName: null,
        primaryKey: ['id'],
        uniques: [{ name: null, columns: ['id'] }],
        foreignKeys: [
          {
            name: null,
            columns: ['order_id'],
            referencedTable: 'orders',
            referencedColumns: ['id'],
            onDelete: 'cascade',
          },
        ],
        indexes: [],
      };
      expect(keyViolations([...schema, loose])).toEqual([
        'loose_lines: primary key (id) does not lead with brand_id',
        'loose_lines: unique key (id) lacks brand_id',
        'loose_lines: foreign key (order_id) → orders (id) is not on brand_id',
      ]);
    });
  });
}
