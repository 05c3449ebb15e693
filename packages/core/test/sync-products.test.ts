import { createBrand, syncProducts } from '../src';
import { parseMoney, parseWeight } from '../src/catalog/product-sync-fields';
import { START, aProduct, aVariant, countingCalls, setUp, violationsOf, withDependents } from './sync-products.support';

describe('syncing products', () => {
  it('creates a product with its variants and the defaults of every field not sent', async () => {
    const { sync, find, brand } = await setUp();

    const outcome = await sync([
      {
        itemNumber: 'TEE-1',
        name: '  Organic tee ',
        variants: [
          {
            sku: 'TEE-1-S',
            attributes: { color: 'Ecru', size: 'S' },
            prices: { EUR: { salesPrice: 12.5, recSalesPrice: '29.95' } },
          },
          { sku: 'TEE-1-M', attributes: { color: 'Ecru', size: 'M' } },
        ],
      },
    ]);

    const stored = await find('TEE-1');
    const [small, medium] = stored!.variants;
    expect(outcome).toEqual([
      {
        itemNumber: 'TEE-1',
        id: stored!.product.id,
        action: 'created',
        variants: [
          { sku: 'TEE-1-S', id: small!.variant.id, action: 'created' },
          { sku: 'TEE-1-M', id: medium!.variant.id, action: 'created' },
        ],
      },
    ]);
    expect(stored!.product).toEqual({
      id: stored!.product.id,
      brandId: brand.id,
      itemNumber: 'TEE-1',
      name: 'Organic tee',
      description: null,
      active: true,
      makeToOrderB2b: false,
      makeToOrderB2c: false,
      meta: {},
      weight: null,
      weightType: 'g',
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
    });
    expect(small).toEqual({
      variant: {
        id: small!.variant.id,
        brandId: brand.id,
        productId: stored!.product.id,
        sku: 'TEE-1-S',
        ean: null,
        attributes: { color: 'Ecru', size: 'S' },
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
        position: 1,
        dropIds: [],
        createdAt: START,
        updatedAt: START,
      },
      prices: [
        {
          variantId: small!.variant.id,
          currency: 'EUR',
          salesPrice: 1250,
          recSalesPrice: 2995,
          offerPrice: null,
          b2cOfferPrice: null,
        },
      ],
      costPrices: [],
    });
    expect(medium!.variant.position).toBe(2);
    expect(stored!.suppliers).toEqual([]);
    expect(stored!.translations).toEqual([]);
  });

  it('stores every product field of the spec, weight exactly in thousandths', async () => {
    const { sync, find } = await setUp();
    await sync([
      aProduct('COAT', {
        description: 'Wool coat',
        active: false,
        makeToOrderB2b: true,
        makeToOrderB2c: true,
        meta: { fabric: 'wool', season: 'AW' },
        weight: 1.255,
        weightType: 'kg',
        noInventory: false,
        releaseDate: '2026-09-01',
        noos: true,
        minOrderQuantity: 6,
        customSort: -3,
        orderColliOnly: true,
        colli: [6, 12],
        url: 'https://shop.example/coat',
        metaTitle: 'Coat',
        metaDescription: 'A warm coat',
        tags: ['outerwear', ' wool ', 'outerwear'],
      }),
    ]);
    expect((await find('COAT'))!.product).toMatchObject({
      description: 'Wool coat',
      active: false,
      makeToOrderB2b: true,
      makeToOrderB2c: true,
      meta: { fabric: 'wool', season: 'AW' },
      weight: 1255,
      weightType: 'kg',
      releaseDate: '2026-09-01',
      noos: true,
      minOrderQuantity: 6,
      customSort: -3,
      orderColliOnly: true,
      colli: [6, 12],
      url: 'https://shop.example/coat',
      metaTitle: 'Coat',
      metaDescription: 'A warm coat',
      tags: ['outerwear', 'wool'],
    });
  });

  it('updates only the fields sent; meta and attributes merge, null clears', async () => {
    const { sync, find, clock } = await setUp();
    await sync([
      aProduct('TEE', {
        description: 'Soft',
        url: 'https://shop.example/tee',
        meta: { fabric: 'cotton', origin: 'PT', care: '30C' },
        tags: ['basics', 'summer'],
        variants: [
          aVariant('TEE-M', {
            attributes: { color: 'Red', size: 'M' },
            meta: { ean_source: 'erp' },
            noos: true,
            prices: { EUR: { salesPrice: 10, recSalesPrice: 25, offerPrice: 8 } },
          }),
        ],
      }),
    ]);
    const before = await find('TEE');
    clock.advance(60_000);

    const [outcome] = await sync([
      {
        itemNumber: 'TEE',
        url: null,
        meta: { origin: 'IT', care: null, new_field: 1 },
        tags: ['basics'],
        variants: [
          {
            sku: 'TEE-M',
            attributes: { color: 'Blue' },
            noos: null,
            meta: { batch: 'B7' },
            prices: { EUR: { offerPrice: null } },
          },
        ],
      },
    ]);

    expect(outcome).toEqual({
      itemNumber: 'TEE',
      id: before!.product.id,
      action: 'updated',
      variants: [{ sku: 'TEE-M', id: before!.variants[0]!.variant.id, action: 'updated' }],
    });
    const after = await find('TEE');
    expect(after!.product).toEqual({
      ...before!.product,
      url: null,
      meta: { fabric: 'cotton', origin: 'IT', new_field: 1 },
      tags: ['basics'],
      updatedAt: '2026-05-01T08:01:00.000Z',
    });
    expect(after!.variants[0]).toEqual({
      variant: {
        ...before!.variants[0]!.variant,
        attributes: { color: 'Blue', size: 'M' },
        noos: null,
        meta: { ean_source: 'erp', batch: 'B7' },
        updatedAt: '2026-05-01T08:01:00.000Z',
      },
      prices: [{ ...before!.variants[0]!.prices[0]!, offerPrice: null }],
      costPrices: [],
    });
  });

  it('reports a replayed request as unchanged and keeps the update times', async () => {
    const { sync, find, clock } = await setUp();
    const item = aProduct('TEE', {
      meta: { a: 1, b: { c: 2 } },
      tags: ['x', 'y'],
      variants: [
        aVariant('TEE-S', {
          attributes: { size: 'S' },
          prices: { EUR: { salesPrice: 10 }, USD: { salesPrice: '12.00' } },
        }),
        aVariant('TEE-M'),
      ],
    });
    await sync([item]);
    const before = await find('TEE');
    clock.advance(60_000);

    const [outcome] = await sync([item]);

    expect(outcome!.action).toBe('unchanged');
    expect(outcome!.variants.map((v) => v.action)).toEqual(['unchanged', 'unchanged']);
    expect(await find('TEE')).toEqual(before);
  });

  it('reports a product whose only change is in a variant as updated, and the untouched variants as unchanged', async () => {
    const { sync } = await setUp();
    await sync([aProduct('TEE', { variants: [aVariant('TEE-S', { attributes: { size: 'S' } }), aVariant('TEE-M')] })]);
    const [outcome] = await sync([
      { itemNumber: 'TEE', variants: [{ sku: 'TEE-S', archived: true }, { sku: 'TEE-M' }] },
    ]);
    expect(outcome).toMatchObject({
      action: 'updated',
      variants: [
        { sku: 'TEE-S', action: 'updated' },
        { sku: 'TEE-M', action: 'unchanged' },
      ],
    });
  });

  it('adds a variant for a new SKU and leaves the variants not sent alone', async () => {
    const { sync, find } = await setUp();
    await sync([aProduct('TEE', { variants: [aVariant('TEE-M', { prices: { EUR: { salesPrice: 10 } } })] })]);
    const [outcome] = await sync([{ itemNumber: 'TEE', variants: [aVariant('TEE-L', { attributes: { size: 'L' } })] }]);
    expect(outcome).toMatchObject({ action: 'updated', variants: [{ sku: 'TEE-L', action: 'created' }] });
    const stored = await find('TEE');
    expect(stored!.variants.map((r) => [r.variant.sku, r.variant.position, r.prices.length])).toEqual([
      ['TEE-M', 1, 1],
      ['TEE-L', 2, 0],
    ]);
  });

  it('never changes an item number: another item number is another product', async () => {
    const { sync, find } = await setUp();
    const [first] = await sync([aProduct('OLD')]);
    const [second] = await sync([aProduct('NEW', { variants: [aVariant('NEW-M')] })]);
    expect(second!.id).not.toBe(first!.id);
    expect(await find('OLD')).not.toBeNull();
    expect(await find('NEW')).not.toBeNull();
  });

  describe('refuses', () => {
    it('a new product without a name or variants, and a new variant without attributes', async () => {
      const { sync } = await setUp();
      expect(
        await violationsOf(
          sync([
            { itemNumber: 'X' },
            { itemNumber: 'Y', name: 'Y', variants: [{ sku: 'Y-1' }] },
            { itemNumber: 'Z', name: ' ', variants: [] },
          ]),
        ),
      ).toEqual({
        '/products/0/name': 'products[0].name is required for a new product',
        '/products/0/variants': 'products[0].variants must contain at least one variant for a new product',
        '/products/1/variants/0/attributes':
          'products[1].variants[0].attributes is required for a new variant (at least one attribute, such as size or color)',
        '/products/2/name': 'products[2].name must not be empty',
        '/products/2/variants': 'products[2].variants must contain at least one variant for a new product',
      });
    });

    it('an item number or SKU sent twice in one request', async () => {
      const { sync, find } = await setUp();
      expect(
        await violationsOf(sync([aProduct('A'), aProduct('A'), aProduct('B', { variants: [aVariant('A-M')] })])),
      ).toEqual({
        '/products/1/item_number': 'products[1].item_number repeats products[0]; send each product once per request',
        '/products/1/variants/0/sku':
          'products[1].variants[0].sku repeats the SKU of products[0].variants[0]; send each variant once per request',
        '/products/2/variants/0/sku':
          'products[2].variants[0].sku repeats the SKU of products[0].variants[0]; send each variant once per request',
      });
      expect(await find('A')).toBeNull();
    });

    it('a SKU that belongs to another product, naming that product', async () => {
      const { sync, find } = await setUp();
      await sync([aProduct('A', { variants: [aVariant('SHARED')] })]);
      expect(await violationsOf(sync([aProduct('B', { variants: [aVariant('SHARED')] })]))).toEqual({
        '/products/0/variants/0/sku':
          'products[0].variants[0].sku belongs to product "A"; a SKU cannot move to another product',
      });
      expect(await find('B')).toBeNull();
    });

    it('variants whose attribute names differ from the product’s other variants', async () => {
      const { sync } = await setUp();
      await sync([aProduct('TEE', { variants: [aVariant('TEE-S', { attributes: { color: 'Red', size: 'S' } })] })]);
      expect(
        await violationsOf(sync([{ itemNumber: 'TEE', variants: [aVariant('TEE-M', { attributes: { size: 'M' } })] }])),
      ).toEqual({
        '/products/0/variants/0/attributes':
          'products[0].variants[0].attributes must have the same attribute names as the product\'s other variants (color, size); "TEE-M" would have size',
      });
      // Adding an attribute to every variant in one request is fine.
      const [outcome] = await sync([
        {
          itemNumber: 'TEE',
          variants: [
            { sku: 'TEE-S', attributes: { fit: 'slim' } },
            aVariant('TEE-M', { attributes: { color: 'Red', size: 'M', fit: 'slim' } }),
          ],
        },
      ]);
      expect(outcome!.variants.map((v) => v.action)).toEqual(['updated', 'created']);
    });

    it('malformed values the DTO cannot judge alone, each at its pointer', async () => {
      const { sync } = await setUp();
      const violations = await violationsOf(
        sync([
          aProduct('A', {
            weight: 1.2345,
            weightType: 'lb' as never,
            releaseDate: '2026-02-30',
            colli: [6, 0],
            minOrderQuantity: 0,
            tags: [''],
            variants: [
              aVariant('A-1', {
                weight: -1,
                releaseDate: '01-02-2026',
                prices: { eur: { salesPrice: 1 }, EUR: { salesPrice: 1.005, recSalesPrice: -2, offerPrice: 'abc' } },
                inventory: [{ quantity: 1, adjustment: 2 }, {}, { quantity: -1 }],
                costPrices: [{ currency: 'Euro', costPrice: 1.234 }],
              }),
            ],
          }),
        ]),
      );
      expect(Object.keys(violations)).toEqual([
        '/products/0/weight',
        '/products/0/weight_type',
        '/products/0/release_date',
        '/products/0/min_order_quantity',
        '/products/0/colli/1',
        '/products/0/tags/0',
        '/products/0/variants/0/weight',
        '/products/0/variants/0/release_date',
        '/products/0/variants/0/prices/eur',
        '/products/0/variants/0/prices/EUR/sales_price',
        '/products/0/variants/0/prices/EUR/rec_sales_price',
        '/products/0/variants/0/prices/EUR/offer_price',
        '/products/0/variants/0/inventory/0',
        '/products/0/variants/0/inventory/1',
        '/products/0/variants/0/inventory/2/quantity',
        '/products/0/variants/0/cost_prices/0/currency',
        '/products/0/variants/0/cost_prices/0/cost_price',
      ]);
      expect(violations['/products/0/variants/0/prices/EUR/sales_price']).toBe(
        'products[0].variants[0].prices.EUR.sales_price must be an amount of at least 0 with at most 2 decimals',
      );
    });
  });

  describe('prices', () => {
    it('defaults sales and recommended prices to 0 and offers to null; null removes a currency', async () => {
      const { sync, find } = await setUp();
      await sync([
        aProduct('A', { variants: [aVariant('A-M', { prices: { EUR: {}, SEK: { b2cOfferPrice: 99.5 } } })] }),
      ]);
      expect((await find('A'))!.variants[0]!.prices).toEqual([
        {
          variantId: expect.any(Number),
          currency: 'EUR',
          salesPrice: 0,
          recSalesPrice: 0,
          offerPrice: null,
          b2cOfferPrice: null,
        },
        {
          variantId: expect.any(Number),
          currency: 'SEK',
          salesPrice: 0,
          recSalesPrice: 0,
          offerPrice: null,
          b2cOfferPrice: 9950,
        },
      ]);
      await sync([
        { itemNumber: 'A', variants: [{ sku: 'A-M', prices: { SEK: null, EUR: { recSalesPrice: 49.9 } } }] },
      ]);
      expect((await find('A'))!.variants[0]!.prices).toEqual([
        {
          variantId: expect.any(Number),
          currency: 'EUR',
          salesPrice: 0,
          recSalesPrice: 4990,
          offerPrice: null,
          b2cOfferPrice: null,
        },
      ]);
    });
  });

  describe('deleting', () => {
    it('deletes a product with its variants, and reports unknown item numbers and SKUs as absent', async () => {
      const { sync, find } = await setUp();
      const [created] = await sync([
        aProduct('A', { variants: [aVariant('A-S', { attributes: { size: 'S' } }), aVariant('A-M')] }),
        aProduct('B'),
      ]);
      const outcome = await sync([
        { itemNumber: 'A', delete: true },
        { itemNumber: 'NEVER', delete: true },
        { itemNumber: 'B', variants: [{ sku: 'B-GONE', delete: true }] },
      ]);
      expect(outcome).toEqual([
        {
          itemNumber: 'A',
          id: created!.id,
          action: 'deleted',
          variants: created!.variants.map((v) => ({ ...v, action: 'deleted' })),
        },
        { itemNumber: 'NEVER', id: null, action: 'absent', variants: [] },
        {
          itemNumber: 'B',
          id: expect.any(Number),
          action: 'unchanged',
          variants: [{ sku: 'B-GONE', id: null, action: 'absent' }],
        },
      ]);
      expect(await find('A')).toBeNull();
      // A retried delete is harmless.
      expect((await sync([{ itemNumber: 'A', delete: true }]))[0]!.action).toBe('absent');
    });

    it('deletes a variant and keeps the others', async () => {
      const { sync, find } = await setUp();
      await sync([aProduct('A', { variants: [aVariant('A-S', { attributes: { size: 'S' } }), aVariant('A-M')] })]);
      const [outcome] = await sync([{ itemNumber: 'A', variants: [{ sku: 'A-S', delete: true }] }]);
      expect(outcome).toMatchObject({ action: 'updated', variants: [{ sku: 'A-S', action: 'deleted' }] });
      expect((await find('A'))!.variants.map((r) => r.variant.sku)).toEqual(['A-M']);
    });

    it('refuses to delete the last variant of a product', async () => {
      const { sync } = await setUp();
      await sync([aProduct('A')]);
      expect(await violationsOf(sync([{ itemNumber: 'A', variants: [{ sku: 'A-M', delete: true }] }]))).toEqual({
        '/products/0/variants/0/delete':
          'products[0].variants[0].delete would delete the last variant of product "A"; a product needs a variant, so delete the product instead',
      });
    });

    it('refuses to delete what orders or invoices still refer to, naming them', async () => {
      const { sync, find, uow } = await setUp();
      await sync([aProduct('A', { variants: [aVariant('A-S', { attributes: { size: 'S' } }), aVariant('A-M')] })]);
      const blocked = withDependents(uow, ['orders', 'invoices']);
      expect(await violationsOf(sync([{ itemNumber: 'A', delete: true }], { via: blocked }))).toEqual({
        '/products/0/delete': 'products[0].delete cannot delete product "A": it still has orders, invoices',
      });
      expect(
        await violationsOf(sync([{ itemNumber: 'A', variants: [{ sku: 'A-S', delete: true }] }], { via: blocked })),
      ).toEqual({
        '/products/0/variants/0/delete':
          'products[0].variants[0].delete cannot delete variant "A-S": it still has orders, invoices',
      });
      expect((await find('A'))!.variants).toHaveLength(2);
    });
  });

  it('writes nothing when one item is invalid (all or nothing)', async () => {
    const { sync, read, brand } = await setUp();
    const violations = await violationsOf(sync([aProduct('A'), aProduct('B'), aProduct('C', { weight: 'heavy' })]));
    expect(Object.keys(violations)).toEqual(['/products/2/weight']);
    expect(await read((r) => r.products.findByItemNumbers(brand.id, ['A', 'B', 'C']))).toEqual([]);
  });

  it('keeps brands apart: the same item number and SKU are separate products per brand', async () => {
    const { sync, find, uow, clock } = await setUp();
    const other = await createBrand({ uow, clock }, { name: 'Other', currency: 'EUR' });
    const [mine] = await sync([aProduct('A', { name: 'Mine' })]);
    const [theirs] = await sync([aProduct('A', { name: 'Theirs' })], { brandId: other.id });
    expect(theirs).toMatchObject({ action: 'created' });
    expect(theirs!.id).not.toBe(mine!.id);
    expect((await find('A'))!.product.name).toBe('Mine');
    expect((await find('A', other.id))!.product.name).toBe('Theirs');
  });

  it('ends in one product when two syncs create the same new product at once', async () => {
    const { sync, read, brand } = await setUp();
    const outcomes = await Promise.all([
      sync([aProduct('A', { name: 'First' })]),
      sync([aProduct('A', { name: 'Second' })]),
    ]);
    expect(outcomes.map(([o]) => o!.action).sort()).toEqual(['created', 'updated']);
    const stored = await read((r) => r.products.findByItemNumbers(brand.id, ['A']));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.variants).toHaveLength(1);
  });

  it('reads and writes a request of 100 products in a constant number of repository calls', async () => {
    const { uow, clock, brand, fetcher, blobs } = await setUp();
    const counted = countingCalls(uow);
    const items = Array.from({ length: 100 }, (_, i) =>
      aProduct(`P-${i}`, {
        variants: Array.from({ length: 5 }, (_, j) =>
          aVariant(`P-${i}-${j}`, {
            attributes: { size: `S${j}` },
            prices: { EUR: { salesPrice: 10 } },
            inventory: [{ quantity: 5 }],
          }),
        ),
      }),
    );
    await syncProducts({ uow: counted.uow, clock, images: { fetcher, blobs } }, { brandId: brand.id, products: items });
    const total = [...counted.calls.values()].reduce((a, b) => a + b, 0);
    expect(counted.calls.get('products.saveAll')).toBe(1);
    expect(counted.calls.get('stock.applyWithVariants')).toBe(1);
    // 12, and two outbox writes, of the 100 product events and of the 500 stock moves'
    // inventory.changed: each one id draw, one append, one read of the webhook endpoints (events
    // are written per transaction, not per product or balance).
    expect(counted.calls.get('events.append')).toBeLessThanOrEqual(2);
    expect(total).toBeLessThanOrEqual(18);

    counted.calls.clear();
    await syncProducts(
      { uow: counted.uow, clock, images: { fetcher, blobs } },
      { brandId: brand.id, products: items.map((item) => ({ ...item, name: 'Renamed' })) },
    );
    expect([...counted.calls.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(12);
  });
});

describe('reading amounts', () => {
  it('takes JSON numbers exactly, refusing more decimals than the scale, as the text parser does', async () => {
    expect([20.49, 0.07, 1999.99, 0, 12, '12.50', 49.95].map(parseMoney)).toEqual([
      2049, 7, 199999, 0, 1200, 1250, 4995,
    ]);
    expect([1.005, 0.1 + 0.2, 1e-7, -1, Number.NaN, '1.001', 'abc'].map(parseMoney)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect([1.255, 0.001, 2500, 1.2345].map(parseWeight)).toEqual([1255, 1, 2500000, null]);
  });
});
