import { createBrand, createDrop, createProductLocale, syncSuppliers } from '../src';
import { aProduct, aVariant, setUp, violationsOf } from './sync-products.support';

describe('syncing products: categories', () => {
  it('links existing categories by name (case-insensitive), a top category when sub_category is null or empty', async () => {
    const { sync, find, uow, clock, brand, read } = await setUp();
    await uow.run(async (tx) => {
      await tx.categories.insert({
        id: 900,
        brandId: brand.id,
        parentId: null,
        name: 'Women',
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      await tx.categories.insert({
        id: 901,
        brandId: brand.id,
        parentId: 900,
        name: 'Knitwear',
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
    });
    await sync([
      aProduct('A', {
        categories: {
          mode: 'replace',
          categories: [
            { topCategory: 'women', subCategory: 'KNITWEAR' },
            { topCategory: 'Women', subCategory: '' },
          ],
        },
      }),
      aProduct('B', { categories: { mode: 'replace', categories: [{ topCategory: 'Women', subCategory: null }] } }),
    ]);
    expect((await find('A'))!.product.categoryIds).toEqual([900, 901]);
    expect((await find('B'))!.product.categoryIds).toEqual([900]);
    expect(await read((r) => r.categories.findChildren(brand.id, [900]))).toHaveLength(1);
  });

  it('refuses a missing category unless create_if_missing is set, and then creates it once for the whole request', async () => {
    const { sync, find, read, brand } = await setUp();
    expect(
      await violationsOf(
        sync([
          aProduct('A', {
            categories: { mode: 'replace', categories: [{ topCategory: 'Men', subCategory: 'Shirts' }] },
          }),
        ]),
      ),
    ).toEqual({
      '/products/0/categories/0':
        'products[0].categories[0] names category "Men" / "Shirts", which does not exist; send create_if_missing: true to create it',
    });

    await sync([
      aProduct('A', {
        categories: {
          mode: 'replace',
          categories: [{ topCategory: 'Men', subCategory: 'Shirts', createIfMissing: true }],
        },
      }),
      aProduct('B', {
        categories: {
          mode: 'replace',
          categories: [
            { topCategory: 'men', subCategory: 'shirts', createIfMissing: true },
            { topCategory: 'Men', createIfMissing: true },
          ],
        },
      }),
    ]);
    const [men] = await read((r) => r.categories.findByNames(brand.id, [{ parentId: null, name: 'Men' }]));
    const shirts = await read((r) => r.categories.findChildren(brand.id, [men!.id]));
    expect(shirts.map((c) => c.name)).toEqual(['Shirts']);
    expect((await find('A'))!.product.categoryIds).toEqual([shirts[0]!.id]);
    expect((await find('B'))!.product.categoryIds).toEqual([men!.id, shirts[0]!.id].sort((a, b) => a - b));
  });

  it('replaces or appends the category set', async () => {
    const { sync, find, read, brand } = await setUp();
    const cat = (topCategory: string) => ({ topCategory, createIfMissing: true });
    /** The ids of the brand's top categories of these names, in the order named. */
    const topCategoryIds = async (...names: string[]) => {
      const found = await read((r) =>
        r.categories.findByNames(
          brand.id,
          names.map((name) => ({ parentId: null, name })),
        ),
      );
      return names.map((name) => found.find((c) => c.name === name)?.id);
    };
    const categoryIdsOf = async (itemNumber: string) => (await find(itemNumber))?.product.categoryIds;

    await sync([aProduct('A', { categories: { mode: 'replace', categories: [cat('One'), cat('Two')] } })]);
    const [one, two] = await topCategoryIds('One', 'Two');
    expect(await categoryIdsOf('A')).toEqual([one, two]);

    await sync([{ itemNumber: 'A', categories: { mode: 'append', categories: [cat('Three')] } }]);
    const [three] = await topCategoryIds('Three');
    expect(await categoryIdsOf('A')).toEqual([one, two, three]);

    await sync([{ itemNumber: 'A', categories: { mode: 'replace', categories: [cat('One')] } }]);
    expect(await categoryIdsOf('A')).toEqual([one]);
    // Replacing unlinks the product from the categories left out; the categories themselves stay.
    expect(await topCategoryIds('One', 'Two', 'Three')).toEqual([one, two, three]);
  });
});

describe('syncing products: suppliers', () => {
  async function withSuppliers() {
    const context = await setUp();
    await syncSuppliers(
      { uow: context.uow, clock: context.clock },
      {
        brandId: context.brand.id,
        suppliers: [
          { supplierNumber: 'S-IT', name: 'Mill', currency: 'EUR' },
          { supplierNumber: 'S-US', name: 'Cotton Inc', currency: 'USD' },
        ],
      },
    );
    const [it, us] = await context.read((r) => r.suppliers.findByNumbers(context.brand.id, ['S-IT', 'S-US']));
    return { ...context, it: it!, us: us! };
  }

  it('links suppliers with defaults; the cost price set defaults to the default set of the supplier’s currency (created when missing)', async () => {
    const { sync, find, read, brand, it, us } = await withSuppliers();
    await sync([
      aProduct('A', {
        suppliers: {
          mode: 'replace',
          suppliers: [
            { supplierNumber: 'S-IT', primary: true, leadTimeType: 'days', leadTimeFrom: 10, leadTimeTo: 20 },
            { supplierNumber: 'S-US', costPriceSet: 'Outlet' },
          ],
        },
      }),
    ]);
    const sets = await read((r) => r.costPriceSets.all(brand.id));
    const eurDefault = sets.find((s) => s.currency === 'EUR' && s.isDefault)!;
    const usdOutlet = sets.find((s) => s.currency === 'USD' && s.label === 'Outlet')!;
    expect(eurDefault).toMatchObject({ label: 'Default', isDefault: true });
    expect(usdOutlet).toMatchObject({ isDefault: false });
    const product = await find('A');
    expect(product!.suppliers).toEqual(
      [
        {
          productId: product!.product.id,
          supplierId: it.id,
          primary: true,
          leadTimeType: 'days',
          leadTimeFrom: 10,
          leadTimeTo: 20,
          costPriceSetId: eurDefault.id,
        },
        {
          productId: product!.product.id,
          supplierId: us.id,
          primary: false,
          leadTimeType: 'weeks',
          leadTimeFrom: null,
          leadTimeTo: null,
          costPriceSetId: usdOutlet.id,
        },
      ].sort((a, b) => a.supplierId - b.supplierId),
    );
  });

  it('appends a supplier link (a new primary demotes the old one) or replaces the links', async () => {
    const { sync, find, it, us } = await withSuppliers();
    await sync([
      aProduct('A', { suppliers: { mode: 'replace', suppliers: [{ supplierNumber: 'S-IT', primary: true }] } }),
    ]);
    await sync([
      { itemNumber: 'A', suppliers: { mode: 'append', suppliers: [{ supplierNumber: 'S-US', primary: true }] } },
    ]);
    expect((await find('A'))!.suppliers.map((l) => [l.supplierId, l.primary])).toEqual(
      [
        [it.id, false],
        [us.id, true],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    await sync([{ itemNumber: 'A', suppliers: { mode: 'replace', suppliers: [{ supplierNumber: 'S-US' }] } }]);
    expect((await find('A'))!.suppliers.map((l) => l.supplierId)).toEqual([us.id]);
  });

  it('refuses unknown suppliers, a supplier twice, two primaries and a lead time range the wrong way round', async () => {
    const { sync } = await withSuppliers();
    expect(
      await violationsOf(
        sync([
          aProduct('A', {
            suppliers: {
              mode: 'replace',
              suppliers: [
                { supplierNumber: 'NOPE' },
                { supplierNumber: 'S-IT', primary: true, leadTimeFrom: 5, leadTimeTo: 2 },
                { supplierNumber: 'S-IT', primary: true },
              ],
            },
          }),
        ]),
      ),
    ).toEqual({
      '/products/0/suppliers/0/supplier_number':
        'products[0].suppliers[0].supplier_number names supplier "NOPE", which does not exist',
      '/products/0/suppliers/1/lead_time_to':
        'products[0].suppliers[1].lead_time_to must not be less than lead_time_from',
      '/products/0/suppliers/2/supplier_number':
        'products[0].suppliers[2].supplier_number repeats suppliers[1]; link each supplier once',
      '/products/0/suppliers/2/primary':
        'products[0].suppliers[2].primary is also set on suppliers[1]; a product has one primary supplier',
    });
  });
});

describe('syncing products: translations', () => {
  it('upserts translations by locale id or code and keeps the fields and locales not sent', async () => {
    const { sync, find, uow, brand } = await setUp();
    const de = await createProductLocale({ uow }, { brandId: brand.id, code: 'de', name: 'German' });
    const fr = await createProductLocale({ uow }, { brandId: brand.id, code: 'fr', name: 'French' });
    await sync([
      aProduct('A', {
        translations: [
          { locale: { id: de.id }, name: 'Hemd', description: 'Aus Leinen', metaTitle: 'Hemd' },
          { locale: { code: 'fr' }, name: 'Chemise' },
        ],
      }),
    ]);
    await sync([{ itemNumber: 'A', translations: [{ locale: { code: 'de' }, name: 'Leinenhemd', metaTitle: null }] }]);
    const product = await find('A');
    expect(product!.translations).toEqual([
      {
        productId: product!.product.id,
        localeId: de.id,
        name: 'Leinenhemd',
        description: 'Aus Leinen',
        metaTitle: null,
        metaDescription: null,
      },
      {
        productId: product!.product.id,
        localeId: fr.id,
        name: 'Chemise',
        description: null,
        metaTitle: null,
        metaDescription: null,
      },
    ]);
  });

  it('refuses unknown locales (also those of another brand) and a locale twice', async () => {
    const { sync, uow, clock, brand } = await setUp();
    const other = await createBrand({ uow, clock }, { name: 'Other', currency: 'EUR' });
    const foreign = await createProductLocale({ uow }, { brandId: other.id, code: 'it', name: 'Italian' });
    await createProductLocale({ uow }, { brandId: brand.id, code: 'de', name: 'German' });
    expect(
      await violationsOf(
        sync([
          aProduct('A', {
            translations: [
              { locale: { code: 'xx' }, name: 'X' },
              { locale: { id: foreign.id }, name: 'Y' },
              { locale: { code: 'de' }, name: 'A' },
              { locale: { code: 'de' }, name: 'B' },
            ],
          }),
        ]),
      ),
    ).toEqual({
      '/products/0/translations/0': 'products[0].translations[0] names product locale "xx", which does not exist',
      '/products/0/translations/1': `products[0].translations[1] names product locale id ${foreign.id}, which does not exist`,
      '/products/0/translations/3': 'products[0].translations[3] repeats the locale de of translations[2]',
    });
  });
});

describe('syncing products: drops', () => {
  it('links drops by id or code, replacing or appending, and refuses unknown drops', async () => {
    const { sync, find, uow, clock, brand } = await setUp();
    const ss = await createDrop({ uow, clock }, { brandId: brand.id, code: 'SS27', name: 'Spring' });
    const aw = await createDrop({ uow, clock }, { brandId: brand.id, code: 'AW27', name: 'Autumn' });
    await sync([
      aProduct('A', { variants: [aVariant('A-M', { drops: { mode: 'replace', drops: [{ code: 'SS27' }] } })] }),
    ]);
    expect((await find('A'))!.variants[0]!.variant.dropIds).toEqual([ss.id]);
    await sync([{ itemNumber: 'A', variants: [{ sku: 'A-M', drops: { mode: 'append', drops: [{ id: aw.id }] } }] }]);
    expect((await find('A'))!.variants[0]!.variant.dropIds).toEqual([ss.id, aw.id].sort((a, b) => a - b));
    await sync([
      { itemNumber: 'A', variants: [{ sku: 'A-M', drops: { mode: 'replace', drops: [{ code: 'AW27' }] } }] },
    ]);
    expect((await find('A'))!.variants[0]!.variant.dropIds).toEqual([aw.id]);

    expect(
      await violationsOf(
        sync([{ itemNumber: 'A', variants: [{ sku: 'A-M', drops: { mode: 'append', drops: [{ code: 'XX' }] } }] }]),
      ),
    ).toEqual({
      '/products/0/variants/0/drops/0': 'products[0].variants[0].drops[0] names drop "XX", which does not exist',
    });
  });
});

describe('syncing products: cost prices', () => {
  it('puts a cost price without a set into the currency’s default set, creating it when missing', async () => {
    const { sync, find, read, brand } = await setUp();
    await sync([aProduct('A', { variants: [aVariant('A-M', { costPrices: [{ currency: 'EUR', costPrice: 4.5 }] })] })]);
    const [set] = await read((r) => r.costPriceSets.all(brand.id));
    expect(set).toMatchObject({ currency: 'EUR', isDefault: true, label: 'Default' });
    expect((await find('A'))!.variants[0]!.costPrices).toEqual([
      { variantId: expect.any(Number), costPriceSetId: set!.id, costPrice: 450 },
    ]);
  });

  it('updates or creates a set by label in the currency, and uses a set by id when its currency matches', async () => {
    const { sync, find, read, brand } = await setUp();
    await sync([
      aProduct('A', {
        variants: [
          aVariant('A-M', {
            costPrices: [
              { currency: 'EUR', costPriceSetLabel: 'Factory', costPrice: 3 },
              { currency: 'USD', costPriceSetLabel: 'Factory', costPrice: 4 },
            ],
          }),
        ],
      }),
    ]);
    const sets = await read((r) => r.costPriceSets.all(brand.id));
    expect(sets.map((s) => [s.label, s.currency, s.isDefault])).toEqual([
      ['Factory', 'EUR', false],
      ['Factory', 'USD', false],
    ]);
    const eur = sets.find((s) => s.currency === 'EUR')!;
    // The label matches case-insensitively: the two entries name one set.
    expect(
      Object.keys(
        await violationsOf(
          sync([
            {
              itemNumber: 'A',
              variants: [
                {
                  sku: 'A-M',
                  costPrices: [
                    { currency: 'EUR', costPriceSetId: eur.id, costPrice: 3.25 },
                    { currency: 'EUR', costPriceSetLabel: 'factory', costPrice: 9 },
                  ],
                },
              ],
            },
          ]),
        ),
      ),
    ).toEqual(['/products/0/variants/0/cost_prices/1']);
    await sync([
      {
        itemNumber: 'A',
        variants: [{ sku: 'A-M', costPrices: [{ currency: 'EUR', costPriceSetId: eur.id, costPrice: 3.25 }] }],
      },
    ]);
    expect((await read((r) => r.costPriceSets.all(brand.id))).length).toBe(2);
    expect((await find('A'))!.variants[0]!.costPrices.map((c) => c.costPrice).sort((a, b) => a - b)).toEqual([
      325, 400,
    ]);
  });

  it('refuses an unknown set id, a set of another currency, and one set twice', async () => {
    const { sync, read, brand } = await setUp();
    await sync([aProduct('A', { variants: [aVariant('A-M', { costPrices: [{ currency: 'USD', costPrice: 1 }] })] })]);
    const [usd] = await read((r) => r.costPriceSets.all(brand.id));
    expect(
      await violationsOf(
        sync([
          {
            itemNumber: 'A',
            variants: [
              {
                sku: 'A-M',
                costPrices: [
                  { currency: 'EUR', costPriceSetId: 999, costPrice: 1 },
                  { currency: 'EUR', costPriceSetId: usd!.id, costPrice: 1 },
                  { currency: 'USD', costPriceSetId: usd!.id, costPrice: 1 },
                  { currency: 'USD', costPrice: 2 },
                ],
              },
            ],
          },
        ]),
      ),
    ).toEqual({
      '/products/0/variants/0/cost_prices/0/cost_price_set_id':
        'products[0].variants[0].cost_prices[0].cost_price_set_id names cost price set id 999, which does not exist',
      '/products/0/variants/0/cost_prices/1/cost_price_set_id':
        'products[0].variants[0].cost_prices[1].cost_price_set_id names a cost price set in USD, not in EUR',
      '/products/0/variants/0/cost_prices/3':
        'products[0].variants[0].cost_prices[3] names the same cost price set as cost_prices[2]',
    });
  });
});
