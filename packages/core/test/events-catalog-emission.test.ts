import {
  AddressInput,
  Customer,
  CustomerSyncItem,
  DomainEvent,
  ProductAggregate,
  createCategory,
  createDrop,
  createLegacyProduct,
  createLegacyVariant,
  createProductLocale,
  deleteCategory,
  deleteLegacyProduct,
  deleteLegacyVariant,
  isDomainError,
  listEvents,
  syncCustomers,
  syncProductImages,
  syncSuppliers,
  updateLegacyProduct,
  updateLegacyVariant,
} from '../src';
import { aProduct, aVariant, setUp } from './sync-products.support';

type Shop = Awaited<ReturnType<typeof setUp>>;
type CustomerEvent = DomainEvent<'customer.created' | 'customer.updated' | 'customer.deleted'>;
type ProductEvent = DomainEvent<'product.created' | 'product.updated' | 'product.deleted'>;

/** Every event of the brand, oldest first (stock moves announce `inventory.changed` beside them). */
const allEvents = async (shop: Shop): Promise<DomainEvent[]> =>
  (await listEvents(shop, { brandId: shop.brand.id, query: { limit: '100' } })).page.items;
const customerEvents = async (shop: Shop): Promise<CustomerEvent[]> =>
  (await allEvents(shop)).filter((e): e is CustomerEvent => e.type.startsWith('customer.'));
const productEvents = async (shop: Shop): Promise<ProductEvent[]> =>
  (await allEvents(shop)).filter((e): e is ProductEvent => e.type.startsWith('product.'));

const findCustomer = async (shop: Shop, customerNumber: string): Promise<Customer> =>
  (await shop.read((r) => r.customers.findByNumbers(shop.brand.id, [customerNumber])))[0]!;
const productById = async (shop: Shop, id: number): Promise<ProductAggregate> =>
  (await shop.read((r) => r.products.findByIds(shop.brand.id, [id])))[0]!;

/** The error code of a refused call. */
async function refusal(outcome: Promise<unknown>): Promise<string> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error.code;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

const MINUTE = 60_000;

function anAddress(title: string): AddressInput {
  return {
    title,
    name: 'Anna Berg',
    address: 'Storgatan 1',
    address2: null,
    zip: '11122',
    city: 'Stockholm',
    region: null,
    country: 'SE',
    remoteErpId: null,
  };
}

describe('customer events', () => {
  const sync = (shop: Shop, customers: CustomerSyncItem[]) =>
    syncCustomers(shop, { brandId: shop.brand.id, customers });

  it('announces each customer a sync creates, in request order, as saved and at the instant of the sync', async () => {
    const shop = await setUp();
    await sync(shop, [
      {
        customerNumber: 'C-2',
        name: 'Second',
        currency: 'EUR',
        addresses: { mode: 'replace', key: 'address_title', addresses: [anAddress('Home')] },
      },
      { customerNumber: 'C-1', name: 'First', currency: 'SEK', discountPercentage: 12.5 },
    ]);

    const events = await customerEvents(shop);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'customer.created',
        object: await findCustomer(shop, 'C-2'),
        createdAt: shop.clock.now(),
      },
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'customer.created',
        object: await findCustomer(shop, 'C-1'),
        createdAt: shop.clock.now(),
      },
    ]);
    expect(events[0]!.object.addresses.map((a) => a.title)).toEqual(['Home']);
  });

  it('announces an update only for a customer that changed (fields or addresses), and nothing for an unchanged one', async () => {
    const shop = await setUp();
    await sync(shop, [
      { customerNumber: 'C-1', name: 'First', currency: 'EUR' },
      { customerNumber: 'C-2', name: 'Second', currency: 'EUR' },
      { customerNumber: 'C-3', name: 'Third', currency: 'EUR' },
    ]);
    shop.clock.advance(MINUTE);
    const replayed = await sync(shop, [{ customerNumber: 'C-1', name: 'First', currency: 'EUR' }]);
    expect(replayed[0]!.action).toBe('unchanged');
    expect((await customerEvents(shop)).map((e) => e.type)).toEqual([
      'customer.created',
      'customer.created',
      'customer.created',
    ]);

    shop.clock.advance(MINUTE);
    await sync(shop, [
      { customerNumber: 'C-3', addresses: { mode: 'append', key: 'address_title', addresses: [anAddress('Office')] } },
      { customerNumber: 'C-2', name: 'Second' },
      { customerNumber: 'C-1', name: 'Renamed', active: false },
    ]);

    const updates = (await customerEvents(shop)).slice(3);
    expect(updates.map((e) => [e.type, e.object.customerNumber])).toEqual([
      ['customer.updated', 'C-3'],
      ['customer.updated', 'C-1'],
    ]);
    expect(updates[0]!.object).toEqual(await findCustomer(shop, 'C-3'));
    expect(updates[1]!.object).toEqual(await findCustomer(shop, 'C-1'));
    expect(updates[1]!.object).toMatchObject({ name: 'Renamed', active: false, updatedAt: shop.clock.now() });
    expect(updates.every((e) => e.createdAt === shop.clock.now())).toBe(true);
  });

  it('announces nothing for a refused sync', async () => {
    const shop = await setUp();
    await sync(shop, [{ customerNumber: 'C-1', name: 'First', currency: 'EUR' }]);
    const refused = await refusal(
      sync(shop, [
        { customerNumber: 'C-1', name: 'Renamed' },
        { customerNumber: 'C-2', name: 'No currency' },
      ]),
    );
    expect(refused).toBe('validation_failed');

    expect((await customerEvents(shop)).map((e) => [e.type, e.object.name])).toEqual([['customer.created', 'First']]);
  });

  it('announces each customer a sync deletes, as stored before, and nothing for an absent one', async () => {
    const shop = await setUp();
    await sync(shop, [
      { customerNumber: 'C-1', name: 'First', currency: 'EUR' },
      { customerNumber: 'C-2', name: 'Second', currency: 'EUR' },
    ]);
    const [first, second] = [await findCustomer(shop, 'C-1'), await findCustomer(shop, 'C-2')];
    shop.clock.advance(MINUTE);
    await sync(shop, [
      { customerNumber: 'C-2', delete: true },
      { customerNumber: 'C-9', delete: true },
      { customerNumber: 'C-1', delete: true },
    ]);

    const deleted = (await customerEvents(shop)).slice(2);
    expect(deleted).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'customer.deleted',
        object: second,
        createdAt: shop.clock.now(),
      },
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'customer.deleted',
        object: first,
        createdAt: shop.clock.now(),
      },
    ]);
    expect(await findCustomer(shop, 'C-1')).toBeUndefined();
  });
});

describe('supplier events', () => {
  const syncSupplier = (shop: Shop, items: Parameters<typeof syncSuppliers>[1]['suppliers']) =>
    syncSuppliers(shop, { brandId: shop.brand.id, suppliers: items });
  const supplierEvents = async (shop: Shop) => (await allEvents(shop)).filter((e) => e.type.startsWith('supplier.'));

  it('announces each supplier a sync deletes, as stored before, and nothing for creates, changes or an absent one', async () => {
    const shop = await setUp();
    await syncSupplier(shop, [
      { supplierNumber: 'S-1', name: 'Mill', currency: 'EUR' },
      { supplierNumber: 'S-2', name: 'Dyer', currency: 'EUR' },
    ]);
    await syncSupplier(shop, [{ supplierNumber: 'S-1', name: 'Mill & Co' }]);
    const [stored] = await shop.read((r) => r.suppliers.findByNumbers(shop.brand.id, ['S-1']));
    expect(await supplierEvents(shop)).toEqual([]);
    shop.clock.advance(MINUTE);

    await syncSupplier(shop, [
      { supplierNumber: 'S-1', delete: true },
      { supplierNumber: 'S-9', delete: true },
    ]);

    expect(await supplierEvents(shop)).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'supplier.deleted',
        object: stored,
        createdAt: shop.clock.now(),
      },
    ]);
  });
});

describe('product events: the product sync', () => {
  it('announces each product it creates with the whole product as read back (variants, prices, references)', async () => {
    const shop = await setUp();
    const de = await createProductLocale(shop, { brandId: shop.brand.id, code: 'de', name: 'German' });
    const drop = await createDrop(shop, { brandId: shop.brand.id, code: 'SS26', name: 'Spring' });
    await syncSuppliers(shop, {
      brandId: shop.brand.id,
      suppliers: [{ supplierNumber: 'S-1', name: 'Mill', currency: 'EUR' }],
    });
    const outcomes = await shop.sync([
      aProduct('TEE', {
        tags: ['summer', 'cotton'],
        categories: {
          mode: 'replace',
          categories: [
            { topCategory: 'Tops', subCategory: 'Tees', createIfMissing: true },
            { topCategory: 'Basics', createIfMissing: true },
          ],
        },
        suppliers: { mode: 'replace', suppliers: [{ supplierNumber: 'S-1', primary: true }] },
        translations: [{ locale: { id: de.id }, name: 'Hemd' }],
        variants: [
          aVariant('TEE-L', {
            attributes: { size: 'L' },
            prices: { SEK: { salesPrice: 100 }, EUR: { salesPrice: 10, recSalesPrice: '19.99' } },
            drops: { mode: 'replace', drops: [{ id: drop.id }] },
            costPrices: [{ currency: 'EUR', costPrice: 4 }],
          }),
          aVariant('TEE-M', { prices: { EUR: { salesPrice: 10 } }, inventory: [{ quantity: 5 }] }),
        ],
      }),
      aProduct('CAP'),
    ]);

    const events = await productEvents(shop);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'product.created',
        object: await productById(shop, outcomes[0]!.id!),
        createdAt: shop.clock.now(),
      },
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'product.created',
        object: await productById(shop, outcomes[1]!.id!),
        createdAt: shop.clock.now(),
      },
    ]);
    expect(events[0]!.object.variants.map((r) => r.variant.sku)).toEqual(['TEE-L', 'TEE-M']);
    expect(events[0]!.object.product.categoryIds).toHaveLength(2);
  });

  it('announces a product whose row or any variant changed, with all its variants; not an unchanged product', async () => {
    const shop = await setUp();
    await shop.sync([
      aProduct('TEE', {
        variants: [
          aVariant('TEE-M', { prices: { EUR: { salesPrice: 10 } } }),
          aVariant('TEE-L', { attributes: { size: 'L' } }),
          aVariant('TEE-XL', { attributes: { size: 'XL' } }),
        ],
      }),
      aProduct('CAP'),
      aProduct('BAG'),
    ]);
    const created = await productEvents(shop);
    shop.clock.advance(MINUTE);

    const outcomes = await shop.sync([
      {
        itemNumber: 'TEE',
        variants: [
          { sku: 'TEE-M', prices: { EUR: { salesPrice: 12 } } },
          { sku: 'TEE-XL', delete: true },
        ],
      },
      { itemNumber: 'CAP', name: 'Product CAP' },
      { itemNumber: 'BAG', name: 'Tote bag' },
    ]);
    expect(outcomes.map((o) => o.action)).toEqual(['updated', 'unchanged', 'updated']);

    const updates = (await productEvents(shop)).slice(created.length);
    expect(updates.map((e) => [e.type, e.object.product.itemNumber])).toEqual([
      ['product.updated', 'TEE'],
      ['product.updated', 'BAG'],
    ]);
    const tee = await productById(shop, outcomes[0]!.id!);
    expect(updates[0]!.object).toEqual(tee);
    expect(tee.variants.map((r) => [r.variant.sku, r.prices[0]?.salesPrice ?? null])).toEqual([
      ['TEE-M', 1200],
      ['TEE-L', null],
    ]);
    expect(updates[1]!.object).toEqual(await productById(shop, outcomes[2]!.id!));
    expect(updates.every((e) => e.createdAt === shop.clock.now() && e.object.product.updatedAt === e.createdAt)).toBe(
      true,
    );
  });

  it('announces each product a sync deletes, in request order, as read back before the delete', async () => {
    const shop = await setUp();
    await shop.sync([aProduct('TEE'), aProduct('CAP'), aProduct('BAG')]);
    const before = await productEvents(shop);
    const [cap, tee] = [(await shop.find('CAP'))!, (await shop.find('TEE'))!];
    shop.clock.advance(MINUTE);

    await shop.sync([
      { itemNumber: 'CAP', delete: true },
      { itemNumber: 'BAG', name: 'Tote' },
      { itemNumber: 'TEE', delete: true },
    ]);

    const after = (await productEvents(shop)).slice(before.length);
    expect(after.map((e) => [e.type, e.object.product.itemNumber, e.createdAt])).toEqual([
      ['product.deleted', 'CAP', shop.clock.now()],
      ['product.updated', 'BAG', shop.clock.now()],
      ['product.deleted', 'TEE', shop.clock.now()],
    ]);
    expect(after[0]!.object).toEqual(cap);
    expect(after[2]!.object).toEqual(tee);
    expect(await shop.find('CAP')).toBeNull();
  });

  it('announces no product event for a change of stock alone, a delete of an absent product, or a refused sync', async () => {
    const shop = await setUp();
    await shop.sync([aProduct('TEE'), aProduct('CAP')]);
    const before = await productEvents(shop);
    shop.clock.advance(MINUTE);

    const stocked = await shop.sync([
      { itemNumber: 'TEE', variants: [{ sku: 'TEE-M', inventory: [{ quantity: 7 }] }] },
    ]);
    expect(stocked[0]!.action).toBe('updated');
    await shop.sync([{ itemNumber: 'NONE', delete: true }]);
    const refused = await refusal(
      shop.sync([
        { itemNumber: 'TEE', name: 'Renamed' },
        { itemNumber: 'NEW', name: 'Without variants' },
      ]),
    );
    expect(refused).toBe('validation_failed');

    expect(await productEvents(shop)).toEqual(before);
    expect((await shop.find('TEE'))!.product.name).toBe('Product TEE');
  });
});

describe('product events: the image sync', () => {
  it('announces a product whose images changed (its updated_at moves), and nothing for an unchanged or refused request', async () => {
    const shop = await setUp();
    const [tee] = await shop.sync([aProduct('TEE'), aProduct('CAP')]);
    const created = (await productEvents(shop)).length;
    const url = 'https://cdn.example.com/tee.jpg';
    shop.fetcher.serve(url);
    const images = (products: Parameters<typeof syncProductImages>[1]['products']) =>
      syncProductImages({ ...shop, fetcher: shop.fetcher, blobs: shop.blobs }, { brandId: shop.brand.id, products });

    shop.clock.advance(MINUTE);
    await images([
      { itemNumber: 'TEE', images: [{ url, sort: 1 }] },
      { itemNumber: 'CAP', images: [] },
    ]);
    shop.clock.advance(MINUTE);
    await images([{ itemNumber: 'TEE', images: [{ url, sort: 1 }] }]);
    expect(await refusal(images([{ itemNumber: 'NOPE', images: [] }]))).toBe('validation_failed');

    const updates = (await productEvents(shop)).slice(created);
    expect(updates).toEqual([
      {
        id: expect.any(Number),
        brandId: shop.brand.id,
        type: 'product.updated',
        object: await productById(shop, tee!.id!),
        createdAt: new Date(Date.parse(shop.clock.now()) - MINUTE).toISOString(),
      },
    ]);
  });
});

describe('product events: the older interface', () => {
  const variant = (sku: string, size: string) => ({
    sku,
    attributes: { size },
    prices: { EUR: { salesPrice: 20, recSalesPrice: 49.95 } },
  });

  it('announces a created product, then each product or variant change, with the whole product as read back', async () => {
    const shop = await setUp();
    const brandId = shop.brand.id;
    const { aggregate } = await createLegacyProduct(shop, {
      brandId,
      product: { itemNumber: 'JKT', name: 'Jacket', variants: [variant('JKT-M', 'M'), variant('JKT-L', 'L')] },
    });
    const id = aggregate.product.id;
    const readings: ProductAggregate[] = [await productById(shop, id)];

    shop.clock.advance(MINUTE);
    await updateLegacyProduct(shop, { brandId, id, product: { name: 'Rain jacket' } });
    readings.push(await productById(shop, id));
    shop.clock.advance(MINUTE);
    const added = await createLegacyVariant(shop, { brandId, productId: id, variant: variant('JKT-XL', 'XL') });
    readings.push(await productById(shop, id));
    shop.clock.advance(MINUTE);
    await updateLegacyVariant(shop, {
      brandId,
      productId: id,
      variantId: added.record.variant.id,
      variant: { prices: { EUR: { salesPrice: 25 } } },
    });
    readings.push(await productById(shop, id));
    shop.clock.advance(MINUTE);
    await deleteLegacyVariant(shop, { brandId, productId: id, variantId: added.record.variant.id });
    readings.push(await productById(shop, id));

    const events = await productEvents(shop);
    expect(events.map((e) => e.type)).toEqual([
      'product.created',
      'product.updated',
      'product.updated',
      'product.updated',
      'product.updated',
    ]);
    expect(events.map((e) => e.object)).toEqual(readings);
    expect(events.map((e) => e.createdAt)).toEqual(readings.map((r) => r.product.updatedAt));
    expect(readings.map((r) => r.variants.length)).toEqual([2, 2, 3, 3, 2]);
  });

  it('announces nothing for a request that changes nothing, a change of stock alone, or a refused request', async () => {
    const shop = await setUp();
    const brandId = shop.brand.id;
    const { aggregate } = await createLegacyProduct(shop, {
      brandId,
      product: { itemNumber: 'JKT', name: 'Jacket', variants: [variant('JKT-M', 'M')] },
    });
    const id = aggregate.product.id;
    const variantId = aggregate.variants[0]!.variant.id;
    shop.clock.advance(MINUTE);

    await updateLegacyProduct(shop, { brandId, id, product: { name: 'Jacket' } });
    await updateLegacyVariant(shop, {
      brandId,
      productId: id,
      variantId,
      variant: { inventory: { stock: { quantity: 3 } } },
    });
    expect(await refusal(updateLegacyProduct(shop, { brandId, id, product: { name: '' } }))).toBe('validation_failed');
    expect(await refusal(createLegacyVariant(shop, { brandId, productId: id, variant: variant('JKT-M', 'M') }))).toBe(
      'duplicate',
    );
    expect(await refusal(deleteLegacyVariant(shop, { brandId, productId: id, variantId }))).toBe('validation_failed');

    expect((await productEvents(shop)).map((e) => e.type)).toEqual(['product.created']);
  });

  it('announces a deleted product as read back before, and nothing for a refused delete', async () => {
    const shop = await setUp();
    const brandId = shop.brand.id;
    const { aggregate } = await createLegacyProduct(shop, {
      brandId,
      product: { itemNumber: 'JKT', name: 'Jacket', variants: [variant('JKT-M', 'M'), variant('JKT-L', 'L')] },
    });
    const id = aggregate.product.id;
    const stored = await productById(shop, id);
    shop.clock.advance(MINUTE);

    expect(await refusal(deleteLegacyProduct(shop, { brandId, id: id + 1000 }))).toBe('not_found');
    await deleteLegacyProduct(shop, { brandId, id });
    expect(await refusal(deleteLegacyProduct(shop, { brandId, id }))).toBe('not_found');

    const events = await productEvents(shop);
    expect(events.map((e) => e.type)).toEqual(['product.created', 'product.deleted']);
    expect(events[1]).toEqual({
      id: expect.any(Number),
      brandId,
      type: 'product.deleted',
      object: stored,
      createdAt: shop.clock.now(),
    });
    expect(await productById(shop, id)).toBeUndefined();
  });

  it('announces each product a deleted category detaches, as read back afterwards', async () => {
    const shop = await setUp();
    const brandId = shop.brand.id;
    const tops = await createCategory(shop, { brandId, name: 'Tops' });
    const tees = await createCategory(shop, { brandId, name: 'Tees', parentId: tops.id });
    const bags = await createCategory(shop, { brandId, name: 'Bags' });
    await shop.sync([
      aProduct('TEE', {
        categories: {
          mode: 'replace',
          categories: [{ topCategory: 'Tops', subCategory: 'Tees' }, { topCategory: 'Bags' }],
        },
      }),
      aProduct('TOTE', { categories: { mode: 'replace', categories: [{ topCategory: 'Bags' }] } }),
      aProduct('TANK', { categories: { mode: 'replace', categories: [{ topCategory: 'Tops' }] } }),
    ]);
    const created = (await productEvents(shop)).length;
    shop.clock.advance(MINUTE);

    await deleteCategory(shop, { brandId, id: tops.id });

    const tee = (await shop.find('TEE'))!;
    const tank = (await shop.find('TANK'))!;
    expect(tee.product.categoryIds).toEqual([bags.id]);
    expect(tank.product.categoryIds).toEqual([]);
    const updates = (await productEvents(shop)).slice(created);
    expect(updates).toEqual([
      { id: expect.any(Number), brandId, type: 'product.updated', object: tee, createdAt: shop.clock.now() },
      { id: expect.any(Number), brandId, type: 'product.updated', object: tank, createdAt: shop.clock.now() },
    ]);
    expect(tees.parentId).toBe(tops.id);
  });
});
