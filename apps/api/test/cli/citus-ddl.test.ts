import { testDialects } from '@brand/persistence-kysely/testing';
import { brand, brandJson, CliTestDatabase, openCliTestDatabase } from './cli-test-support';

for (const dialect of testDialects()) {
  describe(`brand citus-ddl [${dialect}]`, () => {
    let db: CliTestDatabase;

    beforeAll(async () => {
      db = await openCliTestDatabase(dialect);
    });
    afterAll(() => db.close());

    if (dialect === 'sqlite') {
      it('refuses SQLite: Citus distributes Postgres', async () => {
        const run = await brand(db.url, 'citus-ddl');
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/citus-ddl needs a Postgres DATABASE_URL/);
        expect(run.stdout).toBe('');
      });
      return;
    }

    it('prints a statement for every table but the migrator’s, each table once, brands a reference table', async () => {
      const plan = await brandJson(db.url, 'citus-ddl');
      const statements = plan.statements as string[];
      const reference = plan.reference_tables as string[];
      const distributed = plan.distributed_tables as string[];
      const named = statements
        .map((s) => /^select create_(?:reference|distributed)_table\('([a-z_]+)'/.exec(s)?.[1])
        .filter((t): t is string => t !== undefined);
      expect(named).toEqual([...reference, ...distributed]);
      // Foreign keys go before the tables are placed and come back after (Citus's order).
      expect(statements.some((s) => / drop constraint /.test(s))).toBe(true);
      expect(statements.at(-1)).toMatch(/ add constraint .* foreign key /);
      expect(new Set(named).size).toBe(named.length);
      expect(reference).toEqual(expect.arrayContaining(['brands', 'brand_lookups']));
      expect(distributed).toEqual(expect.arrayContaining(['orders', 'order_lines', 'customers', 'variants']));
      expect(statements).toContain(
        `select create_distributed_table('orders', 'brand_id', colocate_with => '${distributed[0]}');`,
      );
      // As text: the statements themselves, one per line, ready for psql.
      const text = await brand(db.url, 'citus-ddl');
      expect(text.code).toBe(0);
      expect(text.stdout.trimEnd().split('\n')).toEqual(statements);
    });
  });
}
