import { openStorage } from '../src';
import { draftProducts, T0 } from './catalog-fixtures';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

it('perf', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'perf-')), 'db.sqlite');
  const durations = new Map<string, number>();
  const storage = await openStorage(path, { log: (e) => { const k = e.query.sql.slice(0, 60); durations.set(k, (durations.get(k) ?? 0) + e.queryDurationMillis); } });
  await storage.migrate();
  const brandId = await storage.uow.run(async (tx) => { const [id] = await tx.ids.next('brands'); await tx.brands.insert({ id: id!, name: 'b', currency: 'EUR', createdAt: T0, updatedAt: T0 }); return id!; });
  const loc = await storage.uow.run(async (tx) => { const [id] = await tx.ids.next('inventory_locations'); await tx.inventoryLocations.insert({ id: id!, brandId, name: 'x', isDefault: true, createdAt: T0, updatedAt: T0 }); return id!; });
  const N = Number(process.env.N ?? 2000);
  let tDraft = 0, tSave = 0, tFind = 0, tStock = 0;
  const t0 = Date.now();
  for (let i = 0; i < N; i += 100) {
    await storage.uow.run(async (tx) => {
      let t = Date.now();
      const items = await draftProducts(tx, brandId, 100, 5);
      tDraft += Date.now() - t; t = Date.now();
      await tx.products.findByItemNumbers(brandId, items.map((a) => a.product.itemNumber));
      await tx.products.findVariantsBySkus(brandId, items.flatMap((a) => a.variants.map((v) => v.variant.sku)));
      tFind += Date.now() - t; t = Date.now();
      await tx.products.saveAll(brandId, items);
      tSave += Date.now() - t; t = Date.now();
      const vids = items.flatMap((a) => a.variants.map((v) => v.variant.id));
      await tx.stock.balances(brandId, vids, loc);
      await tx.stock.apply(brandId, vids.map((variantId) => ({ brandId, variantId, locationId: loc, inStockDelta: 3, reservedDelta: 0, reason: 'sync_quantity', note: 'x', documentType: null, documentId: null, userId: null })), T0);
      tStock += Date.now() - t;
    });
  }
  const total = Date.now() - t0;
  console.log({ N, total, tDraft, tFind, tSave, tStock, variantsPerSec: Math.round(N * 5 / (total / 1000)) });
  console.log([...durations.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0)} ${k}`).join('\n'));
  await storage.close();
}, 600000);
