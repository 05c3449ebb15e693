import { Kysely, sql } from 'kysely';
import { connectKysely, Database, openStorage, parseDatabaseUrl } from '../src';
import { inspectionUrl, openInspectableTestStorage, testDialects } from '../src/testing';

/**
 * The database keeps brands apart by itself (DESIGN §9): a row of one brand cannot point at a row
 * of another (composite foreign keys, both dialects), and on Postgres a statement that names no
 * brand sees no other brand's rows (row-level security, forced, the app's role being neither
 * superuser nor BYPASSRLS). Raw statements on purpose: this is what holds when a query is wrong.
 */
const T0 = '2026-01-01T00:00:00.000Z';

async function seedTwoBrands(db: Kysely<Database>): Promise<void> {
  for (const [brand, group] of [
    [1, 11],
    [2, 21],
  ] as const) {
    await sql`insert into brands (id, name, currency, created_at, updated_at) values (${brand}, ${`Brand ${brand}`}, 'EUR', ${T0}, ${T0})`.execute(
      db,
    );
    await sql`insert into customer_groups (id, brand_id, code, name, created_at, updated_at) values (${group}, ${brand}, 'VIP', 'VIP', ${T0}, ${T0})`.execute(
      db,
    );
  }
}

const insertCustomer = (db: Kysely<Database>, id: number, brandId: number, groupId: number) =>
  sql`insert into customers (id, brand_id, customer_number, name, currency, discount_basis_points, active, customer_group_id, created_at, updated_at)
      values (${id}, ${brandId}, ${`C${id}`}, 'Customer', 'EUR', 0, 1, ${groupId}, ${T0}, ${T0})`.execute(db);

for (const dialect of testDialects()) {
  describe(`the database keeps brands apart [${dialect}]`, () => {
    let storage: Awaited<ReturnType<typeof openInspectableTestStorage>>;
    /** As the superuser on Postgres (row-level security does not bind it): sets up both brands' rows. */
    let admin: Kysely<Database>;

    beforeAll(async () => {
      storage = await openInspectableTestStorage(dialect);
      admin = connectKysely(parseDatabaseUrl(inspectionUrl(storage.url)));
      await seedTwoBrands(admin);
      await insertCustomer(admin, 101, 1, 11);
      await insertCustomer(admin, 201, 2, 21);
    });
    afterAll(async () => {
      await admin.destroy();
      await storage.close();
    });

    it("refuses a row that points at another brand's row", async () => {
      await expect(insertCustomer(admin, 102, 1, 21)).rejects.toThrow(/foreign key/i);
      const { rows } = await sql<{ id: number }>`select id from customers where id = 102`.execute(admin);
      expect(rows).toEqual([]);
      // The same row within its own brand is accepted.
      await insertCustomer(admin, 103, 1, 11);
    });

    if (dialect === 'postgres') {
      describe('row-level security, as the app connects', () => {
        let app: Kysely<Database>;
        beforeAll(() => {
          app = connectKysely(parseDatabaseUrl(storage.url));
        });
        afterAll(() => app.destroy());

        const customerIdsAs = (brand: string) =>
          app.transaction().execute(async (trx) => {
            // As the app sets it (brand-session.ts): SET LOCAL, the form Citus hands on to its workers.
            await sql.raw(`set local brand.id = '${brand}'`).execute(trx);
            // No brand filter on purpose: the forgotten filter row-level security stands in for.
            const { rows } = await sql<{ id: number }>`select id from customers order by id`.execute(trx);
            return rows.map((r) => Number(r.id));
          });

        it('tells whether its role passes over row-level security', async () => {
          expect(await storage.bypassesRowSecurity()).toBe(false);
          const asSuperuser = await openStorage(inspectionUrl(storage.url));
          try {
            expect(await asSuperuser.bypassesRowSecurity()).toBe(inspectionUrl(storage.url) !== storage.url);
          } finally {
            await asSuperuser.close();
          }
        });

        it('is neither superuser nor BYPASSRLS, and owns the tables', async () => {
          const { rows } = await sql<{ rolsuper: boolean; rolbypassrls: boolean; owns: boolean }>`
            select rolsuper, rolbypassrls,
                   (select tableowner = current_user from pg_tables where tablename = 'customers') as owns
              from pg_roles where rolname = current_user`.execute(app);
          expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false, owns: true });
        });

        it("sees only the brand it acts for, none of another brand's rows, without a brand filter", async () => {
          expect(await customerIdsAs('1')).toEqual([101, 103]);
          expect(await customerIdsAs('2')).toEqual([201]);
        });

        it('sees no tenant row at all when it acts for no brand', async () => {
          expect(await customerIdsAs('')).toEqual([]);
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from customers`.execute(app);
          expect(rows[0]!.n).toBe(0);
        });

        it("refuses to write a row of another brand than the one it acts for, and to change another brand's rows", async () => {
          await expect(
            app.transaction().execute(async (trx) => {
              await sql`set local brand.id = '1'`.execute(trx);
              await insertCustomer(trx, 104, 2, 21);
            }),
          ).rejects.toThrow(/row-level security/);
          const changed = await app.transaction().execute(async (trx) => {
            await sql`set local brand.id = '1'`.execute(trx);
            return sql`update customers set name = 'Taken' where id = 201`.execute(trx);
          });
          expect(Number(changed.numAffectedRows)).toBe(0);
          const { rows } = await sql<{ name: string }>`select name from customers where id = 201`.execute(admin);
          expect(rows[0]!.name).toBe('Customer');
        });
      });
    }
  });
}
