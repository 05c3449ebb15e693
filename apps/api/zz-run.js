const Module = require('module');
const orig = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@brand/core') return '/tmp/build/packages/core/src/index.js';
  if (request === '@brand/persistence-kysely') return '/tmp/build/packages/persistence-kysely/src/index.js';
  return orig.call(this, request, ...rest);
};
require('reflect-metadata');
const { tmpdir } = require('os'); const { join } = require('path'); const fs = require('fs');
const { systemClock, syncProducts, createBrand, createUser, createApiApp, issueAccessToken } = require('@brand/core');
const { openStorage } = require('@brand/persistence-kysely');
const { productBatchFor } = require('/tmp/build/apps/api/test/zz-batch.js');
const { createApp } = require('/tmp/build/apps/api/src/app.js');
const { DEFAULT_CONFIG } = require('/tmp/build/apps/api/src/config.js');
const { nodeSecretHasher } = require('/tmp/build/apps/api/src/infrastructure/node-secret-hasher.js');
const pino = require('pino');
const N = Number(process.env.N ?? 2000);
(async () => {
  const file = join(tmpdir(), `zzrun-${process.pid}.sqlite`);
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
  for (let from = 0; from < N; from += 100) {
    const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ products: productBatchFor(from, from + 100) }) });
    if (r.status !== 200) throw new Error(await r.text());
    await r.arrayBuffer();
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`http: ${N} products, ${s.toFixed(2)}s, ${Math.round(N * 5 / s)} variants/s`);
  // raw: saveAll + stock.apply of equivalent aggregates
  server.close(); await storage.close(); fs.rmSync(file, { force: true });
})().catch((e) => { console.error(e); process.exit(1); });
