import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { systemClock, syncProducts, createBrand, Repositories, UnitOfWork } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { productBatchFor } from './zz-batch';

jest.setTimeout(600_000);
const N = Number(process.env.N ?? 2000);

function timing(inner: UnitOfWork, times: Map<string, number>): UnitOfWork {
  const wrap = (tx: Repositories): Repositories =>
    Object.fromEntries(Object.entries(tx).map(([name, repo]) => [name, new Proxy(repo as object, {
      get(target, method: string) {
        const value = (target as any)[method];
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => { const t = process.hrtime.bigint(); try { return await value.apply(target, args); } finally { times.set(`${name}.${method}`, (times.get(`${name}.${method}`) ?? 0) + Number(process.hrtime.bigint() - t) / 1e6); } };
      },
    })])) as unknown as Repositories;
  return { run: (work) => inner.run((tx) => work(wrap(tx))), read: (work) => inner.read((r) => work(wrap(r))) };
}

it('profiles', async () => {
  const file = join(tmpdir(), `prof-${process.pid}.sqlite`);
  const storage = await openStorage(file);
  await storage.migrate();
  const brand = await createBrand({ uow: storage.uow, clock: systemClock }, { name: 'B', currency: 'EUR' });
  const images = { fetcher: { fetch: async () => { throw new Error('x'); } }, blobs: { put: async () => '', get: async () => null, delete: async () => undefined } };
  const { toProductSyncItem, ProductSyncRequestDto } = await import('../src/dtos/product-sync.dto');
  const { plainToInstance } = await import('class-transformer');
  const { validate } = await import('class-validator');
  const times = new Map<string, number>();
  const uow = timing(storage.uow, times);
  let dtoMs = 0; let total = 0;
  for (let from = 0; from < N; from += 100) {
    const t0 = process.hrtime.bigint();
    const dto = plainToInstance(ProductSyncRequestDto, { products: productBatchFor(from, from + 100) });
    await validate(dto, { forbidUnknownValues: true });
    dtoMs += Number(process.hrtime.bigint() - t0) / 1e6;
    const t1 = process.hrtime.bigint();
    await syncProducts({ uow, clock: systemClock, images }, { brandId: brand.id, products: dto.products.map(toProductSyncItem) });
    total += Number(process.hrtime.bigint() - t1) / 1e6;
  }
  await storage.close();
  rmSync(file, { force: true });
  console.log(`dto ${dtoMs.toFixed(0)}ms, sync ${total.toFixed(0)}ms\n` + [...times].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v.toFixed(0)}ms`).join('\n'));
});
