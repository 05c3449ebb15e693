import {
  CreateLegacyProductInput,
  DomainError,
  FixedClock,
  LegacyVariantInput,
  UnitOfWork,
  createBrand,
  createCollection,
  createInventoryLocation,
  createLegacyProduct,
  createLegacyVariant,
  deleteLegacyProduct,
  deleteLegacyVariant,
  getLegacyProduct,
  isDomainError,
  legacyColliOf,
  legacyImageOf,
  legacyImagesOf,
  listLegacyProducts,
  updateLegacyProduct,
  updateLegacyVariant,
} from '../src';
import { InMemoryUnitOfWork } from '../src/testing';

const START = '2026-03-01T08:00:00.000Z';

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const brand = await createBrand({ uow, clock }, { name: 'North Knits', currency: 'EUR' });
  return { uow, clock, brand, deps: { uow, clock } };
}

function aVariant(
  sku: string,
  attributes: Record<string, string> = { color: 'Red', size: 'M' },
  extra: Partial<LegacyVariantInput> = {},
): LegacyVariantInput {
  return { sku, attributes, prices: { EUR: { salesPrice: 20, recSalesPrice: 49.95 } }, ...extra };
}

function aProduct(
  itemNumber: string,
  variants: LegacyVariantInput[] = [aVariant(`${itemNumber}-1`)],
  extra: Partial<CreateLegacyProductInput['product']> = {},
): CreateLegacyProductInput['product'] {
  return { itemNumber, name: `Product ${itemNumber}`, variants, ...extra };
}

async function refusal(outcome: Promise<unknown>): Promise<DomainError> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error('expected the use case to be refused');
}

/** The in-memory storage, but with every product and variant still referred to by an order. */
function withOrders(inner: UnitOfWork): UnitOfWork {
  return {
    run: (work) =>
      inner.run((tx) =>
        work({
          ...tx,
          products: {
            ...tx.products,
            dependentsOfProduct: async () => ['orders'],
            dependentsOfVariant: async () => ['orders'],
          },
        }),
      ),
    read: (work) => inner.read(work),
  };
}

describe('older interface: creating products', () => {
  it('creates a product with variants, prices, stock at the default location and the older fields', async () => {
    const { deps, brand } = await setUp();
    const collection = await createCollection(deps, { brandId: brand.id, title: 'Spring' });

    const { aggregate, relations } = await createLegacyProduct(deps, {
      brandId: brand.id,
      userId: 7,
      product: aProduct(
        'P-1',
        [
          aVariant(
            'S-1',
            { color: 'Red', size: 'M' },
            { ean: 5701234567890, inventory: { stock: { quantity: 12, delivery: '2026-04-01' } } },
          ),
        ],
        {
          collectionId: collection.id,
          image: 'https://cdn.example/p1.jpg',
          images: ['https://cdn.example/p1-a.jpg'],
          colli: 6,
        },
      ),
    });

    const stored = await getLegacyProduct(deps, {
      brandId: brand.id,
      id: aggregate.product.id,
      includes: ['variants.inventory', 'collection'],
    });
    expect(stored.aggregate).toEqual(aggregate);
    expect(legacyImageOf(aggregate.product)).toBe('https://cdn.example/p1.jpg');
    expect(legacyImagesOf(aggregate.product)).toEqual(['https://cdn.example/p1-a.jpg']);
    expect(legacyColliOf(aggregate.product)).toBe(6);
    expect(aggregate.variants[0]!.variant).toMatchObject({
      sku: 'S-1',
      ean: '5701234567890',
      attributes: { color: 'Red', size: 'M' },
      position: 1,
    });
    expect(aggregate.variants[0]!.prices).toEqual([
      {
        variantId: aggregate.variants[0]!.variant.id,
        currency: 'EUR',
        salesPrice: 2000,
        recSalesPrice: 4995,
        offerPrice: null,
        b2cOfferPrice: null,
      },
    ]);
    expect(relations.stock.get(aggregate.variants[0]!.variant.id)).toEqual([
      { key: 'stock', locationId: expect.any(Number), inStock: 12, available: 12 },
    ]);
    expect(stored.relations.collections.get(collection.id)).toEqual(collection);
  });

  it('records the stock change as an api_quantity movement with the delivery date', async () => {
    const { deps, brand, uow } = await setUp();
    const { aggregate } = await createLegacyProduct(deps, {
      brandId: brand.id,
      userId: 7,
      product: aProduct('P-1', [
        aVariant('S-1', undefined, { inventory: { stock: { quantity: 5, delivery: '2026-04-01' } } }),
      ]),
    });
    const movements = await uow.read((r) => r.stock.movements(brand.id, aggregate.variants[0]!.variant.id, 10));
    expect(movements).toEqual([
      expect.objectContaining({
        inStockDelta: 5,
        reservedDelta: 0,
        reason: 'api_quantity',
        note: 'delivery 2026-04-01',
        userId: 7,
      }),
    ]);
  });

  it('sets stock at a location named by its stock-type key and refuses unknown keys', async () => {
    const { deps, brand } = await setUp();
    const main = await createInventoryLocation(deps, { brandId: brand.id, name: 'Main' });
    const outlet = await createInventoryLocation(deps, { brandId: brand.id, name: 'Outlet' });
    const { relations, aggregate } = await createLegacyProduct(deps, {
      brandId: brand.id,
      product: aProduct('P-1', [
        aVariant('S-1', undefined, { inventory: { Outlet: { quantity: 3 }, stock: { quantity: 1 } } }),
      ]),
    });
    expect(relations.stock.get(aggregate.variants[0]!.variant.id)).toEqual([
      { key: 'stock', locationId: main.id, inStock: 1, available: 1 },
      { key: 'Outlet', locationId: outlet.id, inStock: 3, available: 3 },
    ]);

    const error = await refusal(
      createLegacyProduct(deps, {
        brandId: brand.id,
        product: aProduct('P-2', [aVariant('S-2', undefined, { inventory: { incoming: { quantity: 1 } } })]),
      }),
    );
    const twice = await refusal(
      createLegacyProduct(deps, {
        brandId: brand.id,
        product: aProduct('P-3', [
          aVariant('S-3', undefined, { inventory: { stock: { quantity: 1 }, Main: { quantity: 2 } } }),
        ]),
      }),
    );
    expect(error.violations.map((v) => v.pointer)).toEqual(['/product/variants/0/inventory/incoming']);
    expect(twice.violations.map((v) => v.pointer)).toEqual(['/product/variants/0/inventory/Main']);
  });

  it('refuses variants whose attributes differ with code 1000001', async () => {
    const { deps, brand } = await setUp();
    const error = await refusal(
      createLegacyProduct(deps, {
        brandId: brand.id,
        product: aProduct('P-1', [aVariant('S-1', { color: 'Red' }), aVariant('S-2', { size: 'M' })]),
      }),
    );
    expect([error.code, error.data, error.violations.map((v) => v.pointer)]).toEqual([
      'validation_failed',
      { legacyCode: 1000001 },
      ['/product/variants/1/attributes'],
    ]);
  });

  it('refuses a taken item number with 1000002 and a taken SKU with 1000003', async () => {
    const { deps, brand } = await setUp();
    await createLegacyProduct(deps, { brandId: brand.id, product: aProduct('P-1', [aVariant('S-1')]) });
    const itemNumber = await refusal(
      createLegacyProduct(deps, { brandId: brand.id, product: aProduct('P-1', [aVariant('S-9')]) }),
    );
    const sku = await refusal(
      createLegacyProduct(deps, { brandId: brand.id, product: aProduct('P-2', [aVariant('S-1')]) }),
    );
    const twice = await refusal(
      createLegacyProduct(deps, {
        brandId: brand.id,
        product: aProduct('P-3', [aVariant('S-3'), aVariant('S-3', { color: 'Blue', size: 'M' })]),
      }),
    );
    expect(itemNumber.data).toEqual({ legacyCode: 1000002 });
    expect(sku.data).toEqual({ legacyCode: 1000003 });
    expect([twice.data, twice.violations.map((v) => v.pointer)]).toEqual([
      { legacyCode: 1000003 },
      ['/product/variants/1/sku'],
    ]);
  });

  it("refuses a variant without a price in the brand's base currency, or without attributes", async () => {
    const { deps, brand } = await setUp();
    const error = await refusal(
      createLegacyProduct(deps, {
        brandId: brand.id,
        product: aProduct('P-1', [
          aVariant('S-1', undefined, { prices: { USD: { salesPrice: 10 } } }),
          aVariant('S-2', {}),
        ]),
      }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.violations.map((v) => v.pointer)).toEqual([
      '/product/variants/1/attributes',
      '/product/variants/0/prices',
    ]);
  });

  it('refuses amounts with more than 2 decimals and negative amounts', async () => {
    const { deps, brand } = await setUp();
    const error = await refusal(
      createLegacyProduct(deps, {
        brandId: brand.id,
        product: aProduct('P-1', [
          aVariant('S-1', undefined, { prices: { EUR: { salesPrice: 1.005, recSalesPrice: -1 } } }),
        ]),
      }),
    );
    expect(error.violations.map((v) => v.pointer)).toEqual([
      '/product/variants/0/prices/EUR/sales_price',
      '/product/variants/0/prices/EUR/rec_sales_price',
    ]);
  });
});

describe('older interface: changing products and variants', () => {
  it('updates only the root fields sent, moving colli first and keeping variants', async () => {
    const { deps, brand, clock } = await setUp();
    const { aggregate } = await createLegacyProduct(deps, {
      brandId: brand.id,
      product: aProduct('P-1', undefined, { colli: 6, image: 'a.jpg' }),
    });
    clock.advance(1000);

    const { aggregate: updated } = await updateLegacyProduct(deps, {
      brandId: brand.id,
      id: aggregate.product.id,
      product: { name: 'Renamed', colli: 12, image: null },
    });

    expect(updated.product).toMatchObject({
      name: 'Renamed',
      itemNumber: 'P-1',
      colli: [12, 6],
      updatedAt: clock.now(),
    });
    expect(legacyImageOf(updated.product)).toBeNull();
    expect((await getLegacyProduct(deps, { brandId: brand.id, id: aggregate.product.id })).aggregate).toEqual(updated);
  });

  it('refuses an item number of another product with 1000002', async () => {
    const { deps, brand } = await setUp();
    await createLegacyProduct(deps, { brandId: brand.id, product: aProduct('P-1') });
    const { aggregate } = await createLegacyProduct(deps, { brandId: brand.id, product: aProduct('P-2') });
    expect(
      (
        await refusal(
          updateLegacyProduct(deps, { brandId: brand.id, id: aggregate.product.id, product: { itemNumber: 'P-1' } }),
        )
      ).data,
    ).toEqual({ legacyCode: 1000002 });
  });

  it('adds a variant with the same attribute names and refuses one with other names', async () => {
    const { deps, brand } = await setUp();
    const { aggregate } = await createLegacyProduct(deps, { brandId: brand.id, product: aProduct('P-1') });
    const added = await createLegacyVariant(deps, {
      brandId: brand.id,
      productId: aggregate.product.id,
      variant: aVariant('P-1-2', { size: 'L', color: 'Red' }),
    });
    const refused = await refusal(
      createLegacyVariant(deps, {
        brandId: brand.id,
        productId: aggregate.product.id,
        variant: aVariant('P-1-3', { color: 'Red' }),
      }),
    );
    expect(added.record.variant).toMatchObject({ sku: 'P-1-2', position: 2 });
    expect(refused.data).toEqual({ legacyCode: 1000001 });
  });

  it('changes attribute values, prices per currency and stock of a variant, but not attribute names', async () => {
    const { deps, brand } = await setUp();
    const { aggregate } = await createLegacyProduct(deps, {
      brandId: brand.id,
      product: aProduct('P-1', [aVariant('S-1', undefined, { inventory: { stock: { quantity: 4 } } })]),
    });
    const variantId = aggregate.variants[0]!.variant.id;

    const { record, relations } = await updateLegacyVariant(deps, {
      brandId: brand.id,
      productId: aggregate.product.id,
      variantId,
      variant: {
        attributes: { color: 'Blue', size: 'M' },
        prices: { EUR: { offerPrice: 15 }, SEK: { salesPrice: 200 } },
        inventory: { stock: { quantity: 9 } },
      },
    });
    const renamed = await refusal(
      updateLegacyVariant(deps, {
        brandId: brand.id,
        productId: aggregate.product.id,
        variantId,
        variant: { attributes: { colour: 'Blue', size: 'M' } },
      }),
    );

    expect(record.variant.attributes).toEqual({ color: 'Blue', size: 'M' });
    expect(record.prices.map((p) => [p.currency, p.salesPrice, p.recSalesPrice, p.offerPrice])).toEqual([
      ['EUR', 2000, 4995, 1500],
      ['SEK', 20000, 0, null],
    ]);
    expect(relations.stock.get(variantId)?.[0]).toMatchObject({ key: 'stock', inStock: 9 });
    expect(renamed.data).toEqual({ legacyCode: 1000001 });
  });

  it('refuses a SKU of another variant with 1000003 and a variant of another product as missing', async () => {
    const { deps, brand } = await setUp();
    const { aggregate: one } = await createLegacyProduct(deps, { brandId: brand.id, product: aProduct('P-1') });
    const { aggregate: two } = await createLegacyProduct(deps, { brandId: brand.id, product: aProduct('P-2') });
    const sku = await refusal(
      updateLegacyVariant(deps, {
        brandId: brand.id,
        productId: two.product.id,
        variantId: two.variants[0]!.variant.id,
        variant: { sku: 'P-1-1' },
      }),
    );
    const missing = await refusal(
      updateLegacyVariant(deps, {
        brandId: brand.id,
        productId: two.product.id,
        variantId: one.variants[0]!.variant.id,
        variant: { sku: 'X' },
      }),
    );
    expect(sku.data).toEqual({ legacyCode: 1000003 });
    expect(missing.code).toBe('not_found');
  });

  it('deletes a variant but never the last one (1000005)', async () => {
    const { deps, brand } = await setUp();
    const { aggregate } = await createLegacyProduct(deps, {
      brandId: brand.id,
      product: aProduct('P-1', [aVariant('S-1'), aVariant('S-2', { color: 'Blue', size: 'M' })]),
    });
    const [first, second] = aggregate.variants.map((v) => v.variant.id);
    await deleteLegacyVariant(deps, { brandId: brand.id, productId: aggregate.product.id, variantId: first! });
    const last = await refusal(
      deleteLegacyVariant(deps, { brandId: brand.id, productId: aggregate.product.id, variantId: second! }),
    );
    expect([last.code, last.data]).toEqual(['validation_failed', { legacyCode: 1000005 }]);
    expect(
      (await getLegacyProduct(deps, { brandId: brand.id, id: aggregate.product.id })).aggregate.variants.map(
        (v) => v.variant.sku,
      ),
    ).toEqual(['S-2']);
  });

  it('keeps products and variants that orders refer to', async () => {
    const { deps, brand, uow } = await setUp();
    const { aggregate } = await createLegacyProduct(deps, {
      brandId: brand.id,
      product: aProduct('P-1', [aVariant('S-1'), aVariant('S-2', { color: 'Blue', size: 'M' })]),
    });
    const ordered = { ...deps, uow: withOrders(uow) };
    expect((await refusal(deleteLegacyProduct(ordered, { brandId: brand.id, id: aggregate.product.id }))).code).toBe(
      'has_dependents',
    );
    expect(
      (
        await refusal(
          deleteLegacyVariant(ordered, {
            brandId: brand.id,
            productId: aggregate.product.id,
            variantId: aggregate.variants[0]!.variant.id,
          }),
        )
      ).code,
    ).toBe('has_dependents');
    await deleteLegacyProduct(deps, { brandId: brand.id, id: aggregate.product.id });
    expect((await refusal(getLegacyProduct(deps, { brandId: brand.id, id: aggregate.product.id }))).code).toBe(
      'not_found',
    );
  });
});

describe('older interface: listing products split by an attribute', () => {
  it('returns each product once per color, with only that color’s variants; page and limit count products', async () => {
    const { deps, brand } = await setUp();
    await createLegacyProduct(deps, {
      brandId: brand.id,
      product: aProduct('P-1', [
        aVariant('S-1', { color: 'Red', size: 'M' }),
        aVariant('S-2', { color: 'Blue', size: 'M' }),
        aVariant('S-3', { color: 'Red', size: 'L' }),
      ]),
    });
    await createLegacyProduct(deps, {
      brandId: brand.id,
      product: aProduct('P-2', [aVariant('S-4', { color: 'Green', size: 'M' })]),
    });

    const first = await listLegacyProducts(deps, {
      brandId: brand.id,
      query: { limit: '1', page: '0' },
      splitByAttribute: 'color',
    });
    const second = await listLegacyProducts(deps, {
      brandId: brand.id,
      query: { limit: '1', page: '1' },
      splitByAttribute: 'color',
    });
    const third = await listLegacyProducts(deps, {
      brandId: brand.id,
      query: { limit: '1', page: '2' },
      splitByAttribute: 'color',
    });

    expect(first.entries.map((e) => [e.product.itemNumber, e.variants.map((v) => v.variant.sku)])).toEqual([
      ['P-1', ['S-1', 'S-3']],
      ['P-1', ['S-2']],
    ]);
    expect(second.entries.map((e) => [e.product.itemNumber, e.variants.map((v) => v.variant.sku)])).toEqual([
      ['P-2', ['S-4']],
    ]);
    expect(third.entries).toEqual([]);
    expect(first.total).toBe(2);
  });

  it('keeps products whole when their variants lack the attribute', async () => {
    const { deps, brand } = await setUp();
    await createLegacyProduct(deps, {
      brandId: brand.id,
      product: aProduct('P-1', [aVariant('S-1', { size: 'M' }), aVariant('S-2', { size: 'L' })]),
    });
    const result = await listLegacyProducts(deps, { brandId: brand.id, query: {}, splitByAttribute: 'color' });
    expect(result.entries.map((e) => e.variants.length)).toEqual([2]);
  });
});
