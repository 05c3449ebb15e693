import {
  ProductAggregate,
  UnitOfWork,
  addVariant,
  createProduct,
  listEvents,
  updateProduct,
  updateVariant,
} from '../src';
import { setUp, violationsOf } from './sync-products.support';

/** A product's data without what differs between two records of equal content (ids, keys, the event's order). */
function content(aggregate: ProductAggregate): unknown {
  return {
    product: { ...aggregate.product, id: 0, itemNumber: '' },
    variants: aggregate.variants.map((record) => ({
      variant: { ...record.variant, id: 0, productId: 0, sku: record.variant.sku.replace(/^[A-Z]+-/, '') },
      prices: record.prices.map((price) => ({ ...price, variantId: 0 })),
      costPrices: record.costPrices,
    })),
    suppliers: aggregate.suppliers,
    translations: aggregate.translations,
  };
}

/** The storage, but every lookup by item number finds nothing: as if the product were renamed or deleted in between. */
function renamedMeanwhile(inner: UnitOfWork): UnitOfWork {
  return {
    run: (work) => inner.run((tx) => work({ ...tx, products: { ...tx.products, findByItemNumbers: async () => [] } })),
    read: (work) => inner.read(work),
  };
}

describe('single product and variant writes (the product sync, one item at a time)', () => {
  it('creates exactly the product a one-item sync creates from the same fields', async () => {
    const { uow, clock, brand, fetcher, blobs, sync, find } = await setUp();
    const fields = {
      name: ' Tee ',
      tags: ['b', 'a', 'b'],
      meta: { fabric: 'cotton' },
      weight: '0.250',
      variants: [
        { sku: 'M', attributes: { size: 'M' }, prices: { EUR: { salesPrice: 12.5 } } },
        { sku: 'L', attributes: { size: 'L' }, b2cAvailable: false },
      ],
    };
    await sync([
      { itemNumber: 'SYNCED', ...fields, variants: fields.variants.map((v) => ({ ...v, sku: `SYNCED-${v.sku}` })) },
    ]);
    const detail = await createProduct(
      { uow, clock, images: { fetcher, blobs } },
      {
        brandId: brand.id,
        product: {
          itemNumber: 'SINGLE',
          ...fields,
          variants: fields.variants.map((v) => ({ ...v, sku: `SINGLE-${v.sku}` })),
        },
        includes: ['variants'],
      },
    );

    expect(content(detail.product)).toEqual(content((await find('SYNCED'))!));
    expect(detail.product).toEqual(await find('SINGLE'));
    expect(detail.includes).toEqual(['variants']);
  });

  it('names problems as the body of one product or one variant names its fields', async () => {
    const { uow, clock, brand, fetcher, blobs, sync, find } = await setUp();
    const deps = { uow, clock, images: { fetcher, blobs } };
    await sync([{ itemNumber: 'TEE', name: 'Tee', variants: [{ sku: 'TEE-M', attributes: { size: 'M' } }] }]);
    const tee = (await find('TEE'))!;

    expect(
      await violationsOf(
        createProduct(deps, {
          brandId: brand.id,
          product: { itemNumber: 'TEE', variants: [{ sku: 'X', attributes: {} }, { sku: 'X' }] },
        }),
      ),
    ).toEqual({
      '/item_number': `item_number is taken by product ${tee.product.id}`,
      '/variants/1/sku': 'variants[1].sku repeats the SKU of variants[0]; send each variant once per request',
      '/variants/0/attributes':
        'variants[0].attributes is required for a new variant (at least one attribute, such as size or color)',
      '/variants/1/attributes':
        'variants[1].attributes is required for a new variant (at least one attribute, such as size or color)',
    });
    expect(
      await violationsOf(
        addVariant(deps, {
          brandId: brand.id,
          productId: tee.product.id,
          variant: { sku: 'TEE-L', attributes: { colour: 'red' }, prices: { eur: { salesPrice: 1 } } },
        }),
      ),
    ).toEqual({
      '/prices/eur': 'prices.eur must be keyed by a 3-letter ISO 4217 code in capitals, such as EUR',
      '/attributes':
        'attributes must have the same attribute names as the product\'s other variants (size); "TEE-L" would have colour',
    });
    expect(
      await violationsOf(
        updateVariant(deps, { brandId: brand.id, id: tee.variants[0]!.variant.id, changes: { weight: '1.0005' } }),
      ),
    ).toEqual({ '/weight': 'weight must be a number of at least 0 with at most 3 decimals' });
    expect(await find('TEE')).toEqual(tee);
  });

  it('books a new variant’s opening stock as a one-item sync does, and a refused one writes nothing', async () => {
    const { uow, clock, brand, fetcher, blobs, sync, find, read } = await setUp();
    const deps = { uow, clock, images: { fetcher, blobs } };
    const variant = (sku: string) => ({ sku, attributes: { size: 'M' }, inventory: [{ quantity: 5, text: 'count' }] });
    const [synced] = await sync([{ itemNumber: 'SYNCED', name: 'Tee', variants: [variant('SYNCED-M')] }]);
    const detail = await createProduct(deps, {
      brandId: brand.id,
      product: { itemNumber: 'SINGLE', name: 'Tee', variants: [variant('SINGLE-M')] },
      includes: ['variants.inventory'],
    });
    const booked = async (variantId: number) =>
      (await read((r) => r.stock.movements(brand.id, variantId, 10))).map((m) => [
        m.locationId,
        m.inStockDelta,
        m.reason,
        m.note,
      ]);
    const singleM = detail.product.variants[0]!.variant.id;
    expect(await booked(singleM)).toEqual(await booked(synced!.variants[0]!.id!));
    expect(detail.relations.stock.get(singleM)).toEqual([expect.objectContaining({ inStock: 5, reserved: 0 })]);

    const added = await addVariant(deps, {
      brandId: brand.id,
      productId: detail.product.product.id,
      variant: { sku: 'SINGLE-L', attributes: { size: 'L' }, inventory: [{ adjustment: 2 }] },
      includes: ['inventory'],
    });
    expect(added.relations.stock.get(added.variant.variant.id)).toEqual([expect.objectContaining({ inStock: 2 })]);

    const before = await find('SINGLE');
    expect(
      await violationsOf(
        addVariant(deps, {
          brandId: brand.id,
          productId: detail.product.product.id,
          variant: { sku: 'SINGLE-S', attributes: { size: 'S' }, inventory: [{ adjustment: -1 }] },
        }),
      ),
    ).toEqual({
      '/inventory/0/adjustment': 'inventory[0].adjustment would take the stock below 0 (in stock 0, adjustment -1)',
    });
    expect(await find('SINGLE')).toEqual(before);
  });

  it('drops delete and inventory a caller in plain JavaScript slips in: a create deletes nothing, an update moves no stock', async () => {
    const { uow, clock, brand, fetcher, blobs, sync, find, read } = await setUp();
    const deps = { uow, clock, images: { fetcher, blobs } };
    await sync([{ itemNumber: 'TEE', name: 'Tee', variants: [{ sku: 'TEE-M', attributes: { size: 'M' } }] }]);
    const tee = (await find('TEE'))!;

    const smuggled = {
      itemNumber: 'CAP',
      name: 'Cap',
      delete: true,
      variants: [{ sku: 'CAP-M', attributes: { size: 'M' } }],
    };
    await createProduct(deps, { brandId: brand.id, product: smuggled });
    const changes = { ean: '1', inventory: [{ quantity: 5 }], delete: true };
    await updateVariant(deps, {
      brandId: brand.id,
      id: tee.variants[0]!.variant.id,
      changes: changes,
    });

    expect(await find('CAP')).not.toBeNull();
    expect((await find('TEE'))!.variants.map((record) => record.variant.ean)).toEqual(['1']);
    expect(await read((r) => r.stock.balances(brand.id, [tee.variants[0]!.variant.id]))).toEqual([]);
  });

  it('refuses with a conflict, and writes nothing, when the product read by id is no longer stored under its item number', async () => {
    const { uow, clock, brand, fetcher, blobs, sync, find } = await setUp();
    await sync([{ itemNumber: 'TEE', name: 'Tee', variants: [{ sku: 'TEE-M', attributes: { size: 'M' } }] }]);
    const tee = (await find('TEE'))!;
    const deps = { uow: renamedMeanwhile(uow), clock, images: { fetcher, blobs } };

    const attempts = [
      updateProduct(deps, { brandId: brand.id, id: tee.product.id, changes: { name: 'Never' } }),
      addVariant(deps, {
        brandId: brand.id,
        productId: tee.product.id,
        variant: { sku: 'TEE-L', attributes: { size: 'L' } },
      }),
      updateVariant(deps, { brandId: brand.id, id: tee.variants[0]!.variant.id, changes: { ean: '1' } }),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: 'concurrency_conflict' });
    expect(await find('TEE')).toEqual(tee);
    const events = await listEvents({ uow }, { brandId: brand.id, query: { limit: '100' } });
    expect(events.page.items.map((event) => event.type)).toEqual(['product.created']);
  });
});
