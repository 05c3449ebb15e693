const Module = require('module');
const orig = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@brand/core') return '/tmp/build/packages/core/src/index.js';
  if (request === '@brand/persistence-kysely') return '/tmp/build/packages/persistence-kysely/src/index.js';
  return orig.call(this, request, ...rest);
};
require('reflect-metadata');
const { tmpdir } = require('os'); const { join } = require('path'); const fs = require('fs');
const { systemClock, syncProducts, createBrand, ensureDefaultLocation } = require('@brand/core');
const { openStorage } = require('@brand/persistence-kysely');
const { productBatchFor } = require('/tmp/build/apps/api/test/zz-batch.js');
const { validateBody } = require('/tmp/build/apps/api/src/http/validate-dto.js');
const { ProductSyncRequestDto, toProductSyncItem } = require('/tmp/build/apps/api/src/dtos/product-sync.dto.js');
const { createApp } = require('/tmp/build/apps/api/src/app.js');
const { DEFAULT_CONFIG } = require('/tmp/build/apps/api/src/config.js');
const { nodeSecretHasher } = require('/tmp/build/apps/api/src/infrastructure/node-secret-hasher.js');
const { createUser, createApiApp, issueAccessToken } = require('@brand/core');
const pino = require('pino');
const N = Number(process.env.N ?? 2000);
const images = { fetcher: { fetch: async () => { throw new Error('x'); } }, blobs: { put: async () => '', get: async () => null, delete: async () => undefined } };
async function raw(storage, brandId, batches) {
  // repository-level baseline: build aggregates directly, one saveAll + one stock.apply per batch
  const t0 = process.hrtime.bigint();
  for (const products of batches) {
    await storage.uow.run(async (tx) => {
      const now = systemClock.now();
      const loc = await ensureDefaultLocation(tx, systemClock, brandId);
      const pids = await tx.ids.next('products', products.length);
      const vids = await tx.ids.next('variants', products.length * 5);
      let v = 0; const moves = [];
      const aggs = products.map((p, i) => ({
        product: { id: pids[i], brandId, itemNumber: p.item_number, name: p.name, description: p.description, active: true, makeToOrderB2b: false, makeToOrderB2c: false, meta: {}, weight: null, weightType: 'g', noInventory: false, releaseDate: null, noos: false, minOrderQuantity: null, customSort: null, orderColliOnly: false, colli: [], url: null, metaTitle: null, metaDescription: null, tags: [], useSortB2c: false, subbrandId: null, collectionId: null, categoryIds: [], createdAt: now, updatedAt: now },
        variants: p.variants.map((pv, j) => { const id = vids[v++]; moves.push({ brandId, variantId: id, locationId: loc.id, inStockDelta: pv.inventory[0].quantity, reservedDelta: 0, reason: 'sync_quantity', note: pv.inventory[0].text, documentType: null, documentId: null, userId: null }); return { variant: { id, brandId, productId: pids[i], sku: pv.sku, ean: null, attributes: pv.attributes, archived: false, b2cAvailable: true, makeToOrderB2b: null, makeToOrderB2c: null, noos: null, weight: null, weightType: null, releaseDate: null, meta: {}, picture: null, position: j + 1, dropIds: [], createdAt: now, updatedAt: now }, prices: [{ variantId: id, currency: 'EUR', salesPrice: Math.round(pv.prices.EUR.sales_price * 100), recSalesPrice: 4995, offerPrice: null, b2cOfferPrice: null }], costPrices: [] }; }),
        suppliers: [], translations: [],
      }));
      await tx.products.saveAll(brandId, aggs);
      await tx.stock.apply(brandId, moves.filter((m) => m.inStockDelta !== 0), now);
    });
  }
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

async function http(batches) {
  const file = join(tmpdir(), `zzh-${process.pid}.sqlite`);
  const storage = await openStorage(file);
  await storage.migrate();
  const deps = { uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher };
  const brand = await createBrand(deps, { name: 'B', currency: 'EUR' });
  const user = await createUser(deps, { brandId: brand.id, email: 'a@b.c', name: 'x' });
  const { app: apiApp, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'x' });
  const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: apiApp.id });
  const app = createApp({ storage, clock: systemClock, hasher: nodeSecretHasher, logger: pino({ level: 'silent' }), config: { ...DEFAULT_CONFIG, rateLimit: { windowMs: 60000, max: 1e9 }, logLevel: 'silent' } });
  const server = app.listen(0); await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${server.address().port}/products/sync`;
  const headers = { authorization: `Bearer ${accessToken}`, 'x-service-app-key': appKey, 'content-type': 'application/json' };
  const t0 = process.hrtime.bigint();
  for (const products of batches) {
    const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ products }) });
    if (r.status !== 200) throw new Error(await r.text());
    await r.arrayBuffer();
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  server.close(); await storage.close(); fs.rmSync(file, { force: true });
  return s;
}
(async () => {
  const batches = Array.from({ length: N / 100 }, (_, b) => productBatchFor(b * 100, b * 100 + 100));
  for (let round = 0; round < 3; round++) {
    const f1 = join(tmpdir(), `zzs1-${process.pid}.sqlite`); const s1 = await openStorage(f1); await s1.migrate();
    const b1 = await createBrand({ uow: s1.uow, clock: systemClock }, { name: 'B', currency: 'EUR' });
    const rawS = await raw(s1, b1.id, batches);
    await s1.close(); fs.rmSync(f1, { force: true });
    const f2 = join(tmpdir(), `zzs2-${process.pid}.sqlite`); const s2 = await openStorage(f2); await s2.migrate();
    const b2 = await createBrand({ uow: s2.uow, clock: systemClock }, { name: 'B', currency: 'EUR' });
    let dto = 0, core = 0, parse = 0;
    for (const products of batches) {
      const text = JSON.stringify({ products });
      const a = process.hrtime.bigint();
      const body = JSON.parse(text);
      const b = process.hrtime.bigint();
      const valid = await validateBody(ProductSyncRequestDto, body);
      const items = valid.products.map(toProductSyncItem);
      const c = process.hrtime.bigint();
      await syncProducts({ uow: s2.uow, clock: systemClock, images }, { brandId: b2.id, products: items });
      const d = process.hrtime.bigint();
      parse += Number(b - a) / 1e9; dto += Number(c - b) / 1e9; core += Number(d - c) / 1e9;
    }
    await s2.close(); fs.rmSync(f2, { force: true });
    const h = await http(batches);
    console.log(`round ${round}: http ${h.toFixed(2)}s (ratio ${(rawS / h).toFixed(3)}) raw ${rawS.toFixed(2)}s | parse ${parse.toFixed(2)}s dto ${dto.toFixed(2)}s core ${core.toFixed(2)}s | ratio ${(rawS / (parse + dto + core)).toFixed(3)}`);
  }
})().catch((e) => { console.error(e); process.exit(1); });
