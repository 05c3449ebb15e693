import { Kysely, SqliteDialect, sql } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import { Database } from '../src';

it('compile cost', async () => {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
  const rows = Array.from({ length: 500 }, (_, i) => ({
    id: i, brand_id: 1, product_id: 1, sku: `s${i}`, ean: null, attributes: '{}', archived: 0, b2c_available: 1, make_to_order_b2b: null,
    make_to_order_b2c: null, noos: null, weight: null, weight_type: null, release_date: null, meta: '{}', picture: null, position: 1, created_at: 'x', updated_at: 'x',
  }));
  let t = process.hrtime.bigint();
  for (let k = 0; k < 20; k++) db.insertInto('variants').values(rows).compile();
  console.log('plain insert compile ms/stmt', Number(process.hrtime.bigint() - t) / 1e6 / 20);
  t = process.hrtime.bigint();
  for (let k = 0; k < 20; k++) db.insertInto('variants').values(rows).onConflict((oc) => oc.column('id').doUpdateSet({ sku: sql.ref<never>('excluded.sku') })).compile();
  console.log('upsert compile ms/stmt', Number(process.hrtime.bigint() - t) / 1e6 / 20);
  const ids = rows.map((r) => r.id);
  t = process.hrtime.bigint();
  for (let k = 0; k < 20; k++) db.selectFrom('variants').selectAll().where('id', 'in', ids).compile();
  console.log('select in compile ms/stmt', Number(process.hrtime.bigint() - t) / 1e6 / 20);
});
