import {
  DecodedCursor,
  FixedClock,
  ListRequest,
  Page,
  ProductAggregate,
  Repositories,
  UnitOfWork,
  VariantRecord,
  createBrand,
  createDrop,
  createInventoryLocation,
  createProductLocale,
  createSubbrand,
  ensureDefaultLocation,
  getProduct,
  getVariant,
  isDomainError,
  listAvailableStock,
  listDrops,
  listInventoryLocations,
  listProductLocales,
  listProducts,
  listVariants,
  sortSignature,
} from '../src';
import { InMemoryUnitOfWork } from '../src/testing/in-memory-unit-of-work';

const START = '2026-03-01T08:00:00.000Z';

interface VariantSpec {
  sku: string;
  /** Minor units per currency: [sales, rec sales]. */
  prices?: Record<string, [number, number]>;
  costPrices?: { costPriceSetId: number; costPrice: number }[];
}

/** A product aggregate with sensible defaults; ids are drawn inside the caller's transaction. */
async function aProduct(
  tx: Repositories,
  brandId: number,
  itemNumber: string,
  variants: VariantSpec[],
  overrides: Partial<ProductAggregate['product']> = {},
  extra: Partial<Pick<ProductAggregate, 'suppliers' | 'translations'>> = {},
): Promise<ProductAggregate> {
  const [productId] = await tx.ids.next('products');
  const variantIds = variants.length > 0 ? await tx.ids.next('variants', variants.length) : [];
  const records: VariantRecord[] = variants.map((spec, index) => ({
    variant: {
      id: variantIds[index]!,
      brandId,
      productId: productId!,
      sku: spec.sku,
      ean: `87000000${variantIds[index]}`,
      attributes: { size: ['S', 'M', 'L'][index % 3]! },
      archived: false,
      b2cAvailable: true,
      makeToOrderB2b: null,
      makeToOrderB2c: null,
      noos: null,
      weight: null,
      weightType: null,
      releaseDate: null,
      meta: {},
      picture: null,
      position: index,
      dropIds: [],
      createdAt: START,
      updatedAt: START,
    },
    prices: Object.entries(spec.prices ?? {}).map(([currency, [salesPrice, recSalesPrice]]) => ({
      variantId: variantIds[index]!,
      currency,
      salesPrice,
      recSalesPrice,
      offerPrice: null,
      b2cOfferPrice: null,
    })),
    costPrices: (spec.costPrices ?? []).map((c) => ({ variantId: variantIds[index]!, ...c })),
  }));
  return {
    product: {
      id: productId!,
      brandId,
      itemNumber,
      name: `Product ${itemNumber}`,
      description: null,
      active: true,
      makeToOrderB2b: false,
      makeToOrderB2c: false,
      meta: {},
      weight: 1500,
      weightType: 'kg',
      noInventory: false,
      releaseDate: null,
      noos: false,
      minOrderQuantity: null,
      customSort: null,
      orderColliOnly: false,
      colli: [],
      url: null,
      metaTitle: null,
      metaDescription: null,
      tags: [],
      useSortB2c: false,
      subbrandId: null,
      collectionId: null,
      categoryIds: [],
      createdAt: START,
      updatedAt: START,
      ...overrides,
    },
    variants: records,
    suppliers: extra.suppliers ?? [],
    translations: extra.translations ?? [],
  };
}

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const brand = await createBrand({ uow, clock }, { name: 'North Knits', currency: 'EUR' });
  const other = await createBrand({ uow, clock }, { name: 'South Wovens', currency: 'EUR' });
  /** Saves products of `brandId` built inside one transaction. */
  const seed = (brandId: number, build: (tx: Repositories) => Promise<ProductAggregate[]>) =>
    uow.run(async (tx) => {
      const aggregates = await build(tx);
      await tx.products.saveAll(brandId, aggregates);
      return aggregates;
    });
  /** Puts `inStock` pieces of the variant (with `reserved` held) at the brand's default location. */
  const stock = (brandId: number, variantId: number, inStock: number, reserved = 0) =>
    uow.run(async (tx) => {
      const location = await ensureDefaultLocation(tx, clock, brandId);
      const movement = {
        brandId,
        variantId,
        locationId: location.id,
        note: null,
        documentType: null,
        documentId: null,
        userId: null,
      };
      await tx.stock.apply(
        brandId,
        [{ ...movement, inStockDelta: inStock, reservedDelta: 0, reason: 'sync_quantity' }],
        clock.now(),
      );
      if (reserved > 0)
        await tx.stock.apply(
          brandId,
          [{ ...movement, inStockDelta: 0, reservedDelta: reserved, reason: 'order_reserved' }],
          clock.now(),
        );
      return location;
    });
  return { uow, clock, brandId: brand.id, otherBrandId: other.id, seed, stock };
}

/** The request of the next page, with the cursor the API would have signed and decoded. */
function nextRequest<T>(
  brandId: number,
  resource: string,
  result: { page: Page<T>; query: { sort: { key: string; direction: 'ASC' | 'DESC' }[] } },
  query: Record<string, unknown> = {},
): ListRequest {
  const cursor: DecodedCursor = { resource, sort: sortSignature(result.query.sort), values: result.page.next!.values };
  return { brandId, query: { ...query, cursor: 'signed' }, cursor };
}

async function refusal(outcome: Promise<unknown>): Promise<{ code: string; pointers: string[] }> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return { code: error.code, pointers: error.violations.map((v) => v.pointer) };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** The in-memory storage, counting how often stock balances are read. */
function countingBalanceReads(inner: UnitOfWork): { uow: UnitOfWork; reads: () => number } {
  let reads = 0;
  const wrap = (repos: Repositories): Repositories => ({
    ...repos,
    stock: {
      ...repos.stock,
      balances: (...args) => {
        reads += 1;
        return repos.stock.balances(...args);
      },
    },
  });
  return {
    uow: { run: (work) => inner.run((tx) => work(wrap(tx))), read: (work) => inner.read((r) => work(wrap(r))) },
    reads: () => reads,
  };
}

describe('catalog reads (core, in memory)', () => {
  describe('listing products', () => {
    it('walks 45 products by cursor in pages of 20 without totals after the first page', async () => {
      const { uow, brandId, seed } = await setUp();
      await seed(brandId, async (tx) =>
        Promise.all(Array.from({ length: 45 }, (_, i) => aProduct(tx, brandId, `P-${String(i).padStart(3, '0')}`, []))),
      );

      const first = await listProducts({ uow }, { brandId, query: {} });
      expect(first.page.items).toHaveLength(20);
      expect(first.page.total).toBe(45);
      const second = await listProducts({ uow }, nextRequest(brandId, 'products', first));
      expect(second.page.total).toBeNull();
      const third = await listProducts({ uow }, nextRequest(brandId, 'products', second));
      expect(third.page.items).toHaveLength(5);
      expect(third.page.hasMore).toBe(false);
      const itemNumbers = [first, second, third].flatMap((r) => r.page.items.map((a) => a.product.itemNumber));
      expect(new Set(itemNumbers).size).toBe(45);
    });

    it('composes variants.inventory from one batched balance read for the whole page', async () => {
      const { uow, brandId, seed, stock } = await setUp();
      const products = await seed(brandId, async (tx) =>
        Promise.all(
          [1, 2, 3].map((n) => aProduct(tx, brandId, `INV-${n}`, [{ sku: `INV-${n}-S` }, { sku: `INV-${n}-M` }])),
        ),
      );
      await stock(brandId, products[0]!.variants[0]!.variant.id, 10, 3);
      await stock(brandId, products[2]!.variants[1]!.variant.id, 4);
      const counting = countingBalanceReads(uow);

      const result = await listProducts(
        { uow: counting.uow },
        { brandId, query: { includes: ['variants.inventory'] } },
      );

      expect(counting.reads()).toBe(1);
      expect(result.query.includes).toEqual(expect.arrayContaining(['variants', 'variants.inventory']));
      expect(result.page.items.every((a) => a.variants.length === 2)).toBe(true);
      const first = result.relations.stock.get(products[0]!.variants[0]!.variant.id)!;
      expect(first).toEqual([expect.objectContaining({ inStock: 10, reserved: 3 })]);
      expect(result.relations.stock.get(products[2]!.variants[1]!.variant.id)).toEqual([
        expect.objectContaining({ inStock: 4, reserved: 0 }),
      ]);
      expect(result.relations.stock.has(products[1]!.variants[0]!.variant.id)).toBe(false);
    });

    it('reads the stock of a page with many variants in batches of 500 ids, not per product', async () => {
      const { uow, brandId, seed } = await setUp();
      await seed(brandId, async (tx) =>
        Promise.all(
          [1, 2, 3].map((n) =>
            aProduct(
              tx,
              brandId,
              `BIG-${n}`,
              Array.from({ length: 200 }, (_, i) => ({ sku: `BIG-${n}-${i}` })),
            ),
          ),
        ),
      );
      const counting = countingBalanceReads(uow);
      const result = await listProducts(
        { uow: counting.uow },
        { brandId, query: { includes: ['variants.inventory'] } },
      );
      expect(result.page.items.flatMap((a) => a.variants)).toHaveLength(600);
      expect(counting.reads()).toBe(2);
    });

    it('loads categories with their parents, suppliers, locales, images and cost price sets only when included', async () => {
      const { uow, clock, brandId, seed } = await setUp();
      const locale = await createProductLocale({ uow }, { brandId, code: 'de', name: 'German' });
      const ids = await uow.run(async (tx) => {
        const [top, sub, setId] = [...(await tx.ids.next('categories', 2)), ...(await tx.ids.next('cost_price_sets'))];
        await tx.categories.insert({
          id: top!,
          brandId,
          parentId: null,
          name: 'Knitwear',
          createdAt: START,
          updatedAt: START,
        });
        await tx.categories.insert({
          id: sub!,
          brandId,
          parentId: top!,
          name: 'Cardigans',
          createdAt: START,
          updatedAt: START,
        });
        await tx.costPriceSets.insert({
          id: setId!,
          brandId,
          label: 'EUR default',
          currency: 'EUR',
          isDefault: true,
          createdAt: START,
        });
        const [supplierId] = await tx.ids.next('suppliers');
        await tx.suppliers.save({
          id: supplierId!,
          brandId,
          supplierNumber: 'S-1',
          name: 'Mill',
          currency: 'EUR',
          active: true,
          email: null,
          addresses: [],
          createdAt: START,
          updatedAt: START,
        });
        return { top: top!, sub: sub!, setId: setId!, supplierId: supplierId! };
      });
      const [product] = await seed(brandId, async (tx) => [
        await aProduct(
          tx,
          brandId,
          'CARDI',
          [{ sku: 'CARDI-S', costPrices: [{ costPriceSetId: ids.setId, costPrice: 1250 }] }],
          { categoryIds: [ids.sub] },
          {
            suppliers: [
              {
                productId: 0,
                supplierId: ids.supplierId,
                primary: true,
                leadTimeType: 'weeks',
                leadTimeFrom: 2,
                leadTimeTo: 4,
                costPriceSetId: null,
              },
            ],
            translations: [
              {
                productId: 0,
                localeId: locale.id,
                name: 'Strickjacke',
                description: null,
                metaTitle: null,
                metaDescription: null,
              },
            ],
          },
        ).then((a) => ({
          ...a,
          suppliers: a.suppliers.map((s) => ({ ...s, productId: a.product.id })),
          translations: a.translations.map((t) => ({ ...t, productId: a.product.id })),
        })),
      ]);
      await uow.run(async (tx) => {
        const [imageId] = await tx.ids.next('product_images');
        await tx.productImages.saveAll([
          {
            id: imageId!,
            brandId,
            productId: product!.product.id,
            blobKey: 'k',
            sourceUrl: 'https://cdn.example/a.jpg',
            existanceKey: null,
            contentType: 'image/jpeg',
            sizeBytes: 3,
            alt: null,
            filename: null,
            sort: 1,
            sortB2c: null,
            variantIds: [],
            createdAt: clock.now(),
            updatedAt: clock.now(),
          },
        ]);
      });

      const bare = await listProducts({ uow }, { brandId, query: {} });
      expect(
        bare.relations.categories.size +
          bare.relations.suppliers.size +
          bare.relations.locales.size +
          bare.relations.images.size,
      ).toBe(0);

      const full = await listProducts(
        { uow },
        { brandId, query: { includes: ['categories', 'suppliers', 'translations', 'images', 'variants.cost_prices'] } },
      );
      expect([...full.relations.categories.keys()].sort()).toEqual([ids.top, ids.sub].sort());
      expect(full.relations.suppliers.get(ids.supplierId)?.supplierNumber).toBe('S-1');
      expect(full.relations.locales.get(locale.id)?.code).toBe('de');
      expect(full.relations.images.get(product!.product.id)).toHaveLength(1);
      expect(full.relations.costPriceSets.get(ids.setId)?.label).toBe('EUR default');
      expect(full.page.items[0]!.variants[0]!.costPrices).toEqual([expect.objectContaining({ costPrice: 1250 })]);
    });

    it('refuses an unknown include, while page is fine on the (not cursor-only) product list', async () => {
      const { uow, brandId, seed } = await setUp();
      expect(await refusal(listProducts({ uow }, { brandId, query: { includes: ['variants.stock'] } }))).toEqual({
        code: 'invalid_list_query',
        pointers: ['/includes/0'],
      });
      await seed(brandId, async (tx) => [
        await aProduct(tx, brandId, 'FIRST', [{ sku: 'FIRST-1' }]),
        await aProduct(tx, brandId, 'SECOND', [{ sku: 'SECOND-1' }]),
        await aProduct(tx, brandId, 'THIRD', [{ sku: 'THIRD-1' }]),
      ]);
      const second = await listProducts({ uow }, { brandId, query: { page: '1', limit: '2' } });
      expect(second.query.page).toBe(1);
      expect(second.page.items.map((p) => p.product.itemNumber)).toEqual(['THIRD']);
      expect(second.page.hasMore).toBe(false);
      const first = await listProducts({ uow }, { brandId, query: { page: '0', limit: '2' } });
      expect(first.page.items.map((p) => p.product.itemNumber)).toEqual(['FIRST', 'SECOND']);
      expect(first.page.hasMore).toBe(true);
    });
  });

  describe('one product or variant', () => {
    it('answers not_found for a product of another brand, exactly as for a missing one', async () => {
      const { uow, brandId, otherBrandId, seed } = await setUp();
      const [foreign] = await seed(otherBrandId, async (tx) => [
        await aProduct(tx, otherBrandId, 'THEIRS', [{ sku: 'THEIRS-1' }]),
      ]);
      const [own] = await seed(brandId, async (tx) => [
        await aProduct(tx, brandId, 'OURS', [{ sku: 'OURS-1', prices: { EUR: [1999, 3999] } }]),
      ]);

      expect(await refusal(getProduct({ uow }, { brandId, id: foreign!.product.id }))).toEqual({
        code: 'not_found',
        pointers: [],
      });
      expect(await refusal(getProduct({ uow }, { brandId, id: 999_999 }))).toEqual({ code: 'not_found', pointers: [] });
      expect(await refusal(getVariant({ uow }, { brandId, id: foreign!.variants[0]!.variant.id }))).toEqual({
        code: 'not_found',
        pointers: [],
      });

      const detail = await getProduct({ uow }, { brandId, id: own!.product.id, includes: ['variants.prices'] });
      expect(detail.includes).toEqual(expect.arrayContaining(['variants', 'variants.prices']));
      expect(detail.product.variants[0]!.prices).toEqual([
        expect.objectContaining({ currency: 'EUR', salesPrice: 1999, recSalesPrice: 3999 }),
      ]);
    });

    it('gives a variant its prices, inventory and product when included', async () => {
      const { uow, brandId, seed, stock } = await setUp();
      const [product] = await seed(brandId, async (tx) => [
        await aProduct(tx, brandId, 'TEE', [{ sku: 'TEE-S', prices: { EUR: [1000, 2500], SEK: [11000, 27500] } }]),
      ]);
      const variantId = product!.variants[0]!.variant.id;
      await stock(brandId, variantId, 7, 2);

      const detail = await getVariant(
        { uow },
        { brandId, id: variantId, includes: ['prices', 'inventory', 'product'] },
      );
      expect(detail.variant.itemNumber).toBe('TEE');
      expect(
        detail.relations.records
          .get(variantId)!
          .prices.map((p) => p.currency)
          .sort(),
      ).toEqual(['EUR', 'SEK']);
      expect(detail.relations.products.get(product!.product.id)?.itemNumber).toBe('TEE');
      expect(detail.relations.stock.get(variantId)).toEqual([expect.objectContaining({ inStock: 7, reserved: 2 })]);
    });

    it('lists variants of the brand only, filtered by product', async () => {
      const { uow, brandId, otherBrandId, seed } = await setUp();
      const [, b] = await seed(brandId, async (tx) => [
        await aProduct(tx, brandId, 'A', [{ sku: 'A-1' }, { sku: 'A-2' }]),
        await aProduct(tx, brandId, 'B', [{ sku: 'B-1' }]),
      ]);
      await seed(otherBrandId, async (tx) => [await aProduct(tx, otherBrandId, 'X', [{ sku: 'X-1' }])]);

      const all = await listVariants({ uow }, { brandId, query: {} });
      expect(all.page.items.map((v) => v.variant.sku)).toEqual(['A-1', 'A-2', 'B-1']);
      const filtered = await listVariants(
        { uow },
        {
          brandId,
          query: {
            filter_groups: [{ filters: [{ key: 'product_id', value: String(b!.product.id) }] }],
            includes: ['product'],
          },
        },
      );
      expect(filtered.page.items.map((v) => v.variant.sku)).toEqual(['B-1']);
      expect([...filtered.relations.products.keys()]).toEqual([b!.product.id]);
    });
  });

  describe('inventory available', () => {
    it('is cursor-only: page is refused and no total is ever given', async () => {
      const { uow, brandId, seed, stock } = await setUp();
      const [product] = await seed(brandId, async (tx) => [
        await aProduct(tx, brandId, 'SOCK', [{ sku: 'SOCK-1' }, { sku: 'SOCK-2' }, { sku: 'SOCK-3' }]),
      ]);
      for (const record of product!.variants) await stock(brandId, record.variant.id, 5, 1);

      expect(await refusal(listAvailableStock({ uow }, { brandId, query: { page: '0' } }))).toEqual({
        code: 'invalid_list_query',
        pointers: ['/page'],
      });
      const first = await listAvailableStock({ uow }, { brandId, query: { limit: '2' } });
      expect(first.page.total).toBeNull();
      expect(first.page.items.map((r) => [r.sku, r.inStock, r.available])).toEqual([
        ['SOCK-1', 5, 4],
        ['SOCK-2', 5, 4],
      ]);
      const rest = await listAvailableStock(
        { uow },
        { brandId, query: { starting_after: String(first.page.items[1]!.id) } },
      );
      expect(rest.page.items.map((r) => r.sku)).toEqual(['SOCK-3']);
      expect(rest.page.hasMore).toBe(false);
    });
  });

  describe('back office', () => {
    it('creates drops with a code unique within the brand', async () => {
      const { uow, clock, brandId, otherBrandId } = await setUp();
      const drop = await createDrop({ uow, clock }, { brandId, code: ' SS27 ', name: 'Spring/Summer 2027' });
      expect(drop).toMatchObject({ code: 'SS27', name: 'Spring/Summer 2027', createdAt: START });
      expect(await refusal(createDrop({ uow, clock }, { brandId, code: 'SS27', name: 'Again' }))).toEqual({
        code: 'duplicate',
        pointers: ['/code'],
      });
      await expect(
        createDrop({ uow, clock }, { brandId: otherBrandId, code: 'SS27', name: 'Theirs' }),
      ).resolves.toMatchObject({ code: 'SS27' });
      expect(await refusal(createDrop({ uow, clock }, { brandId, code: ' ', name: '' }))).toEqual({
        code: 'validation_failed',
        pointers: ['/code', '/name'],
      });
      const listed = await listDrops({ uow }, { brandId, query: {} });
      expect(listed.page.items.map((d) => d.code)).toEqual(['SS27']);
    });

    it("makes a brand's first inventory location its default and later ones not", async () => {
      const { uow, clock, brandId } = await setUp();
      const first = await createInventoryLocation({ uow, clock }, { brandId, name: 'Rotterdam DC' });
      const second = await createInventoryLocation({ uow, clock }, { brandId, name: 'Store room' });
      expect([first.isDefault, second.isDefault]).toEqual([true, false]);
      const defaults = await listInventoryLocations(
        { uow },
        { brandId, query: { filter_groups: [{ filters: [{ key: 'is_default', value: 'true' }] }] } },
      );
      expect(defaults.page.items.map((l) => l.name)).toEqual(['Rotterdam DC']);
    });

    it('does not make a location default when stock already created the default one', async () => {
      const { uow, clock, brandId } = await setUp();
      await uow.run((tx) => ensureDefaultLocation(tx, clock, brandId));
      const made = await createInventoryLocation({ uow, clock }, { brandId, name: 'Outlet' });
      expect(made.isDefault).toBe(false);
      const all = await listInventoryLocations({ uow }, { brandId, query: {} });
      expect(all.page.items.map((l) => [l.name, l.isDefault])).toEqual([
        ['Main warehouse', true],
        ['Outlet', false],
      ]);
    });

    it('creates product locales with unique codes and lists them with filters and totals', async () => {
      const { uow, brandId, otherBrandId } = await setUp();
      await createProductLocale({ uow }, { brandId, code: 'de', name: 'German' });
      await createProductLocale({ uow }, { brandId, code: 'fr', name: 'French' });
      await createProductLocale({ uow }, { brandId: otherBrandId, code: 'nl', name: 'Dutch' });
      expect(await refusal(createProductLocale({ uow }, { brandId, code: 'de', name: 'Deutsch' }))).toEqual({
        code: 'duplicate',
        pointers: ['/code'],
      });
      expect(await refusal(createProductLocale({ uow }, { brandId, code: 'en GB', name: 'British' }))).toEqual({
        code: 'validation_failed',
        pointers: ['/code'],
      });

      const all = await listProductLocales({ uow }, { brandId, query: {} });
      expect(all.page.items.map((l) => l.code)).toEqual(['de', 'fr']);
      expect(all.page.total).toBe(2);
      const sorted = await listProductLocales({ uow }, { brandId, query: { sort: [{ key: 'name' }], limit: '1' } });
      expect(sorted.page.items.map((l) => l.code)).toEqual(['fr']);
      expect(sorted.page.hasMore).toBe(true);
      const filtered = await listProductLocales(
        { uow },
        { brandId, query: { filter_groups: [{ filters: [{ key: 'code', operator: 'eq', value: 'de' }] }] } },
      );
      expect(filtered.page.items.map((l) => l.name)).toEqual(['German']);
    });

    it('creates sub-brands', async () => {
      const { uow, clock, brandId } = await setUp();
      const subbrand = await createSubbrand({ uow, clock }, { brandId, name: ' Kids ' });
      expect(subbrand).toMatchObject({ brandId, name: 'Kids', createdAt: START });
      expect(await uow.read((r) => r.subbrands.findByIds(brandId, [subbrand.id]))).toEqual([subbrand]);
      expect(await refusal(createSubbrand({ uow, clock }, { brandId, name: '' }))).toEqual({
        code: 'validation_failed',
        pointers: ['/name'],
      });
    });
  });
});
