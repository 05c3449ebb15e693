import {
  BlobStore,
  DomainError,
  FetchedImage,
  FixedClock,
  ImageFetcher,
  ProductAggregate,
  ProductSyncItem,
  Repositories,
  UnitOfWork,
  VariantSyncItem,
  createBrand,
  isDomainError,
  syncProducts,
} from '../src';
import { InMemoryUnitOfWork } from '../src/testing';

export const START = '2026-05-01T08:00:00.000Z';

/** Serves images from a table of URLs; any other URL fails like an unreachable host. Counts the downloads. */
export class FakeImageFetcher implements ImageFetcher {
  readonly fetched: string[] = [];
  private readonly images = new Map<string, FetchedImage>();

  serve(url: string, text = url, contentType = 'image/jpeg'): this {
    this.images.set(url, { bytes: Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff), contentType });
    return this;
  }

  async fetch(url: string): Promise<FetchedImage> {
    this.fetched.push(url);
    const image = this.images.get(url);
    if (!image) throw new DomainError('image_download_failed', 'the server answered 404');
    return image;
  }
}

/** Keeps blobs in memory under a key derived from their bytes (content-addressed, like the real stores). */
export class FakeBlobStore implements BlobStore {
  readonly blobs = new Map<string, FetchedImage>();

  async put(bytes: Uint8Array, contentType: string): Promise<string> {
    // FNV-1a over the bytes: equal bytes, equal key.
    const hash = bytes.reduce((h, byte) => Math.imul(h ^ byte, 16777619) >>> 0, 2166136261);
    const key = `blob-${hash.toString(16)}-${bytes.byteLength}`;
    this.blobs.set(key, { bytes, contentType });
    return key;
  }

  async get(key: string): Promise<FetchedImage | null> {
    return this.blobs.get(key) ?? null;
  }

  async delete(key: string): Promise<void> {
    this.blobs.delete(key);
  }
}

/** A new variant as a sync item: SKU and size. */
export function aVariant(sku: string, extra: Partial<VariantSyncItem> = {}): VariantSyncItem {
  return { sku, attributes: { size: 'M' }, ...extra };
}

/** A new product as a sync item with one variant `<item>-M`. */
export function aProduct(itemNumber: string, extra: Partial<ProductSyncItem> = {}): ProductSyncItem {
  return { itemNumber, name: `Product ${itemNumber}`, variants: [aVariant(`${itemNumber}-M`)], ...extra };
}

/** Counts the calls of every repository method made through the unit of work. */
export function countingCalls(inner: UnitOfWork): { uow: UnitOfWork; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const wrap = (tx: Repositories): Repositories =>
    Object.fromEntries(
      Object.entries(tx).map(([name, repository]) => [
        name,
        new Proxy(repository as object, {
          get(target, method: string) {
            const value = (target as Record<string, unknown>)[method];
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              calls.set(`${name}.${method}`, (calls.get(`${name}.${method}`) ?? 0) + 1);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        }),
      ]),
    ) as unknown as Repositories;
  return {
    uow: { run: (work) => inner.run((tx) => work(wrap(tx))), read: (work) => inner.read((r) => work(wrap(r))) },
    calls,
  };
}

/** The in-memory storage, but with every product and variant still referred to by `dependents`. */
export function withDependents(inner: UnitOfWork, dependents: string[]): UnitOfWork {
  return {
    run: (work) =>
      inner.run((tx) =>
        work({
          ...tx,
          products: {
            ...tx.products,
            dependentsOfProduct: async () => dependents,
            dependentsOfVariant: async () => dependents,
          },
        }),
      ),
    read: (work) => inner.read(work),
  };
}

/** The violations a refused sync names, as pointer → detail. */
export async function violationsOf(outcome: Promise<unknown>): Promise<Record<string, string>> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error) && error.code === 'validation_failed')
      return Object.fromEntries(error.violations.map((v) => [v.pointer, v.detail]));
    throw error;
  }
  throw new Error('expected the sync to be refused');
}

/** A brand on in-memory storage, with a fake image fetcher and blob store. */
export async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const brand = await createBrand({ uow, clock }, { name: 'North Knits', currency: 'EUR' });
  const fetcher = new FakeImageFetcher();
  const blobs = new FakeBlobStore();
  const sync = (products: ProductSyncItem[], options: { via?: UnitOfWork; brandId?: number; userId?: number } = {}) =>
    syncProducts(
      { uow: options.via ?? uow, clock, images: { fetcher, blobs } },
      {
        brandId: options.brandId ?? brand.id,
        products,
        ...(options.userId !== undefined ? { userId: options.userId } : {}),
      },
    );
  const find = async (itemNumber: string, brandId = brand.id): Promise<ProductAggregate | null> =>
    (await uow.read((r) => r.products.findByItemNumbers(brandId, [itemNumber])))[0] ?? null;
  const read = <T>(work: (r: Repositories) => Promise<T>) => uow.read(work);
  return { uow, clock, brand, fetcher, blobs, sync, find, read };
}
