import { openStorage } from '../src';
import { sql } from 'kysely';
import { connect } from '../src/connection';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

it('plans', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'plan-')), 'db.sqlite');
  const storage = await openStorage(path);
  await storage.migrate();
  const db = connect({ dialect: 'sqlite', location: path });
  const qs = [
    `select id, variant_id, location_id from stock_balances where brand_id = 1 and variant_id in (1,2,3,4,5,6,7,8,9,10)`,
    `select * from variants where brand_id = 1 and product_id in (1,2,3,4,5,6,7,8,9,10) order by product_id, position, id`,
    `select * from variants where brand_id = 1 and id in (1,2,3,4,5,6,7,8,9,10)`,
    `select * from variant_prices where brand_id = 1 and variant_id in (1,2,3,4,5,6,7,8,9,10) order by variant_id`,
    `select * from product_images where brand_id = 1 and product_id in (1,2,3)`,
    `select product_id, category_id from product_categories where brand_id = 1 and product_id in (1,2,3) order by product_id, category_id`,
    `select * from product_suppliers where brand_id = 1 and product_id in (1,2,3) order by product_id, supplier_id`,
    `select image_id, variant_id from product_image_variants where brand_id = 1 and image_id in (1,2,3) order by image_id, variant_id`,
    `select * from stock_movements where brand_id = 1 and variant_id = 5 order by created_at desc, id desc limit 10`,
    `select product_id from product_categories where brand_id = 1 and category_id in (1,2)`,
    `select * from categories where brand_id = 1 and parent_id in (1,2)`,
    `select * from categories where brand_id = 1 and name_key in ('a','b')`,
    `select * from (select stock_balances.id as id, variants.sku as sku, stock_balances.in_stock - stock_balances.reserved as available from stock_balances inner join variants on variants.id = stock_balances.variant_id where stock_balances.brand_id = 1) as available where available.id > 100 order by available.id limit 101`,
    `select 1 from product_suppliers where brand_id = 1 and supplier_id = 3 limit 1`,
  ];
  for (const q of qs) {
    const r = await sql.raw(`explain query plan ${q}`).execute(db);
    console.log(q.slice(0, 90) + '\n   ' + (r.rows as { detail: string }[]).map((x) => x.detail).join(' | '));
  }
  await db.destroy(); await storage.close();
});
