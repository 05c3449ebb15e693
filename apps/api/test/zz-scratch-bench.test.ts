import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import request from 'supertest';
import { systemClock, syncProducts, createBrand } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { productBatchFor } from './zz-batch';
import { buildApp } from './support/test-app';
import { createIntegrator } from './support/integrator';
import { FixedClock } from '@brand/core';

jest.setTimeout(600_000);
const N = Number(process.env.N ?? 2000);

it('measures', async () => {
  const file = join(tmpdir(), `bench-${process.pid}.sqlite`);
  const storage = await openStorage(file);
  await storage.migrate();
  const brand = await createBrand({ uow: storage.uow, clock: systemClock }, { name: 'B', currency: 'EUR' });
  const images = { fetcher: { fetch: async () => { throw new Error('x'); } }, blobs: { put: async () => '', get: async () => null, delete: async () => undefined } };
  const { toProductSyncItem } = await import('../src/dtos/product-sync.dto');
  const { plainToInstance } = await import('class-transformer');
  const { ProductSyncRequestDto } = await import('../src/dtos/product-sync.dto');
  let t0 = Date.now();
  for (let from = 0; from < N; from += 100) {
    const dto = plainToInstance(ProductSyncRequestDto, { products: productBatchFor(from, from + 100) });
    await syncProducts({ uow: storage.uow, clock: systemClock, images }, { brandId: brand.id, products: dto.products.map(toProductSyncItem) });
  }
  const core = (Date.now() - t0) / 1000;
  t0 = Date.now();
  for (let from = 0; from < N; from += 100) {
    const dto = plainToInstance(ProductSyncRequestDto, { products: productBatchFor(from, from + 100) });
    await syncProducts({ uow: storage.uow, clock: systemClock, images }, { brandId: brand.id, products: dto.products.map(toProductSyncItem) });
  }
  const replay = (Date.now() - t0) / 1000;
  await storage.close();
  rmSync(file, { force: true });

  const file2 = join(tmpdir(), `bench2-${process.pid}.sqlite`);
  const storage2 = await openStorage(file2);
  await storage2.migrate();
  const clock = new FixedClock();
  const app = buildApp(storage2, clock);
  const who = await createIntegrator(storage2, clock);
  t0 = Date.now();
  for (let from = 0; from < N; from += 100) {
    const r = await request(app).post('/products/sync').set(who.headers).send({ products: productBatchFor(from, from + 100) });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  }
  const http = (Date.now() - t0) / 1000;
  await storage2.close();
  rmSync(file2, { force: true });
  console.log(`N=${N} variants=${N * 5}: core ${core}s (${Math.round(N * 5 / core)}/s), replay ${replay}s, http ${http}s (${Math.round(N * 5 / http)}/s)`);
});
