import { sql } from 'kysely';
import { connectKysely, parseDatabaseUrl, planCitusDistribution, readCitusDistribution } from '../src';
import { TableModel } from '../src/migrations/brand-keys/schema-model';
import { openTestStorage, testDialects } from '../src/testing';

const table = (name: string, references: string[] = [], brand = true): TableModel => ({
  name,
  columns: [
    { name: 'id', type: 'bigint', notNull: true, defaultSql: null },
    ...(brand ? [{ name: 'brand_id', type: 'bigint', notNull: true, defaultSql: null }] : []),
  ],
  primaryKeyName: null,
  primaryKey: brand ? ['brand_id', 'id'] : ['id'],
  uniques: [],
  foreignKeys: references.map((r) => ({
    name: null,
    columns: ['brand_id', `${r}_id`],
    referencedTable: r,
    referencedColumns: ['brand_id', 'id'],
    onDelete: 'no action',
  })),
  indexes: [],
});

describe('the Citus distribution plan', () => {
  it('makes global tables reference tables and distributes tenant tables after those they reference, co-located', () => {
    const plan = planCitusDistribution([
      table('order_lines', ['orders', 'variants']),
      table('orders', ['customers']),
      table('brands', [], false),
      table('customers'),
      table('variants', ['variants']),
    ]);
    expect(plan.referenceTables).toEqual(['brands']);
    expect(plan.distributedTables).toEqual(['customers', 'variants', 'orders', 'order_lines']);
    expect(plan.statements.filter((s) => s.startsWith('select'))).toEqual([
      "select create_reference_table('brands');",
      "select create_distributed_table('customers', 'brand_id');",
      "select create_distributed_table('variants', 'brand_id', colocate_with => 'customers');",
      "select create_distributed_table('orders', 'brand_id', colocate_with => 'customers');",
      "select create_distributed_table('order_lines', 'brand_id', colocate_with => 'customers');",
    ]);
  });

  it('refuses foreign keys that go round in a cycle', () => {
    expect(() => planCitusDistribution([table('a', ['b']), table('b', ['a'])])).toThrow(/cycle among a, b/);
  });

  it('needs Postgres', async () => {
    await expect(readCitusDistribution(':memory:')).rejects.toThrow(/postgres/);
  });
});

if (testDialects().includes('postgres')) {
  describe('the Citus distribution of the migrated schema [postgres]', () => {
    it('names every table of the catalog exactly once, distributes every tenant table, referenced tables first', async () => {
      const storage = await openTestStorage('postgres');
      const db = connectKysely(parseDatabaseUrl(storage.url));
      try {
        const plan = await readCitusDistribution(storage.url);
        const { rows } = await sql<{ table_name: string; has_brand: boolean }>`
          select t.table_name,
                 exists (select 1 from information_schema.columns c
                          where c.table_schema = t.table_schema and c.table_name = t.table_name and c.column_name = 'brand_id') as has_brand
            from information_schema.tables t
           where t.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(db);
        const named = [...plan.referenceTables, ...plan.distributedTables, ...plan.localTables];
        expect([...named].sort()).toEqual(rows.map((r) => r.table_name).sort());
        expect(new Set(named).size).toBe(named.length);
        const tenant = rows.filter((r) => r.has_brand && r.table_name !== 'brand_lookups').map((r) => r.table_name);
        expect([...plan.distributedTables].sort()).toEqual(tenant.sort());
        expect(plan.referenceTables).toEqual(
          expect.arrayContaining(['brands', 'brand_lookups', 'id_counters', 'rate_limit_counters', 'shared_secrets']),
        );
        // Every referenced tenant table is distributed before the table that references it.
        const { rows: references } = await sql<{ referencing: string; referenced: string }>`
          select rel.relname as referencing, ref.relname as referenced
            from pg_constraint con
            join pg_class rel on rel.oid = con.conrelid
            join pg_class ref on ref.oid = con.confrelid
           where con.contype = 'f' and rel.relname <> ref.relname`.execute(db);
        const position = new Map(plan.distributedTables.map((t, i) => [t, i]));
        const outOfOrder = references.filter(
          (r) => position.has(r.referenced) && position.get(r.referenced)! > position.get(r.referencing)!,
        );
        expect(outOfOrder).toEqual([]);
        // Every foreign key of a tenant table is dropped before the tables are placed and made again after.
        const { rows: keys } = await sql<{ n: number }>`
          select count(*)::int as n from pg_constraint con join pg_class rel on rel.oid = con.conrelid
           where con.contype = 'f' and exists (select 1 from information_schema.columns c
             where c.table_schema = current_schema() and c.table_name = rel.relname and c.column_name = 'brand_id')
             and rel.relname <> 'brand_lookups'`.execute(db);
        const drops = plan.statements.filter((s) => / drop constraint /.test(s));
        const adds = plan.statements.filter((s) => / add constraint .* foreign key /.test(s));
        expect([drops.length, adds.length]).toEqual([keys[0]!.n, keys[0]!.n]);
        const firstPlacement = plan.statements.findIndex((s) => s.startsWith('select create_'));
        const lastIndex = (test: (s: string) => boolean) =>
          plan.statements.length - 1 - [...plan.statements].reverse().findIndex(test);
        const lastPlacement = lastIndex((s) => s.startsWith('select create_'));
        expect(lastIndex((s) => / drop constraint /.test(s))).toBeLessThan(firstPlacement);
        expect(plan.statements.findIndex((s) => / add constraint /.test(s))).toBeGreaterThan(lastPlacement);
      } finally {
        await db.destroy();
        await storage.close();
      }
    });
  });
}
