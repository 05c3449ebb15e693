import { newProduct, newVariant } from '../catalog/product-sync-merge';
import { Product, ProductAggregate, Variant } from '../catalog/catalog.entities';
import { ListDefinition, ListQuery, Page, RawListQuery, sortSignature } from '../listing/list-query';
import { DecodedCursor } from '../listing/validate-list-query';
import { Brand } from '../identity/identity.entities';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/** Parallel tests wait on real databases (Postgres row locks, retries); give them room. */
export const SLOW = 30_000;

/** What a storage adapter under test hands the contract: its unit of work and a way to close it. */
export interface ContractStorage {
  uow: UnitOfWork;
  close(): Promise<void>;
}

/**
 * Opens the suite's storage before its tests and closes it after them (call it inside the
 * suite's `describe`); answers the unit of work, which throws when asked for outside the tests.
 */
export function useContractStorage(open: () => Promise<ContractStorage>): () => UnitOfWork {
  let storage: ContractStorage | undefined;
  beforeAll(async () => {
    storage = await open();
  }, SLOW);
  afterAll(async () => {
    await storage?.close();
  }, SLOW);
  return () => {
    if (!storage) throw new Error('storage is not open');
    return storage.uow;
  };
}

/**
 * One storage for every contract suite a test file runs (call it at the file's top level): the
 * first suite to open it opens it, the others get the same one, and it closes after the file's
 * last test. Opening is a suite's costly step on a real database (Postgres copies a template), and
 * the suites make their own brands, so sharing changes nothing they check.
 *
 * @example
 * const open = sharedContractStorage(() => openTestStorage('sqlite'));
 * describeCustomersContract('Kysely repositories [sqlite]', open);
 * describeSuppliersContract('Kysely repositories [sqlite]', open);
 */
export function sharedContractStorage(open: () => Promise<ContractStorage>): () => Promise<ContractStorage> {
  let storage: Promise<ContractStorage> | undefined;
  afterAll(async () => {
    await (await storage)?.close();
  }, SLOW);
  return async () => {
    const { uow } = await (storage ??= open());
    return { uow, close: async () => {} };
  };
}

/** A new brand saved through the repositories, named `<label> <id>`, made and changed at `at`. */
export async function insertBrand(uow: UnitOfWork, label: string, at: string): Promise<Brand> {
  return uow.run(async (tx) => {
    const [id] = await tx.ids.next('brands');
    const brand: Brand = { id: id!, name: `${label} ${id}`, currency: 'EUR', createdAt: at, updatedAt: at };
    await tx.brands.insert(brand);
    return brand;
  });
}

/** Throws a marker error so tests can tell an on-purpose failure from a real one. */
export class PlannedFailure extends Error {
  constructor(label: string) {
    super(`planned failure: ${label}`);
    this.name = 'PlannedFailure';
  }
}

export type Lister<T> = (raw: RawListQuery, cursor?: DecodedCursor) => Promise<{ page: Page<T>; query: ListQuery }>;

/** Follows `next` positions as the API would after verifying its signed cursor; checks no page of a cursor walk counts. */
export async function walkByCursor<T>(
  definition: ListDefinition<T>,
  list: Lister<T>,
  raw: RawListQuery,
): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: DecodedCursor | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const { page, query } = await list(cursor ? { ...raw, cursor: 'signed-cursor' } : raw, cursor);
    if (cursor) expect(page.total).toBeNull();
    pages.push(page.items);
    if (!page.next) return pages;
    expect(page.hasMore).toBe(true);
    cursor = { resource: definition.resource, sort: sortSignature(query.sort), values: page.next.values };
  }
  throw new Error('the keyset walk did not end');
}

/** Walks a list by 0-based `page` until a page says there is no more. */
export async function walkByOffset<T>(list: Lister<T>, raw: RawListQuery): Promise<T[][]> {
  const pages: T[][] = [];
  for (let page = 0; page < 100; page++) {
    const result = (await list({ ...raw, page })).page;
    pages.push(result.items);
    if (!result.hasMore) return pages;
  }
  throw new Error('the offset walk did not end');
}

/** The prices of one variant in a product aggregate. */
type VariantPrices = ProductAggregate['variants'][number]['prices'];

/**
 * Saves, in `tx`, a product with `count` variants (sizes S, M, L in turn; an EAN each unless
 * `eanOf` says otherwise; the prices `pricesOf` gives, none by default) and returns the variants.
 * The contract suites' one way to put sellable articles in a brand.
 */
export async function saveProductWithVariants(
  tx: Pick<Repositories, 'ids' | 'products'>,
  brandId: number,
  options: {
    count: number;
    at: string;
    eanOf?: (id: number, index: number) => string | null;
    pricesOf?: (variant: Variant) => VariantPrices;
  },
): Promise<Variant[]> {
  const { count, at, eanOf = (id) => `57${String(id).padStart(11, '0')}`, pricesOf = () => [] } = options;
  const [productId] = await tx.ids.next('products');
  const variantIds = await tx.ids.next('variants', count);
  const product: Product = { ...newProduct(productId!, brandId, `P-${productId}`, at), name: `Product ${productId}` };
  const variants = variantIds.map(
    (id, i): Variant => ({
      ...newVariant(id, brandId, productId!, `SKU-${id}`, i + 1, at).variant,
      ean: eanOf(id, i),
      attributes: { size: ['S', 'M', 'L'][i % 3]! },
    }),
  );
  const aggregate: ProductAggregate = {
    product,
    variants: variants.map((variant) => ({ variant, prices: pricesOf(variant), costPrices: [] })),
    suppliers: [],
    translations: [],
  };
  await tx.products.saveAll(brandId, [aggregate]);
  return variants;
}

/** The host's timers: the core compiles without a runtime's typings (it runs on any). */
export const hostTimers = globalThis as unknown as {
  setTimeout(this: void, callback: () => void, ms: number): unknown;
  clearTimeout(this: void, handle: unknown): void;
};
