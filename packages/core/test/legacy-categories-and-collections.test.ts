import {
  DomainError,
  FixedClock,
  createBrand,
  createCategory,
  createCollection,
  createLegacyProduct,
  deleteCategory,
  getCategory,
  isDomainError,
  listCategories,
  syncCustomers,
  updateCategory,
} from '../src';
import { InMemoryUnitOfWork } from '../src/testing';

const START = '2026-03-01T08:00:00.000Z';

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const brand = await createBrand({ uow, clock }, { name: 'North Knits', currency: 'EUR' });
  const deps = { uow, clock };
  return { uow, clock, brand, deps };
}

/** The error a use case was refused with. */
async function refusal(outcome: Promise<unknown>): Promise<DomainError> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error('expected the use case to be refused');
}

describe('older interface: categories', () => {
  it('creates a top category and a subcategory under it', async () => {
    const { deps, brand } = await setUp();
    const shoes = await createCategory(deps, { brandId: brand.id, name: '  Shoes ' });
    const boots = await createCategory(deps, { brandId: brand.id, name: 'Boots', parentId: shoes.id });
    expect(shoes).toEqual({
      id: shoes.id,
      brandId: brand.id,
      parentId: null,
      name: 'Shoes',
      createdAt: START,
      updatedAt: START,
    });
    expect(boots.parentId).toBe(shoes.id);
  });

  it('refuses a name already used under the same parent in any letter case, with code 40001', async () => {
    const { deps, brand } = await setUp();
    const shoes = await createCategory(deps, { brandId: brand.id, name: 'Shoes' });
    await createCategory(deps, { brandId: brand.id, name: 'Boots', parentId: shoes.id });

    const top = await refusal(createCategory(deps, { brandId: brand.id, name: 'SHOES' }));
    const sub = await refusal(createCategory(deps, { brandId: brand.id, name: 'boots', parentId: shoes.id }));

    expect([top.code, top.data]).toEqual(['duplicate', { legacyCode: 40001 }]);
    expect([sub.code, sub.data]).toEqual(['duplicate', { legacyCode: 40001 }]);
    // The same name under another parent is another combination.
    await expect(createCategory(deps, { brandId: brand.id, name: 'Shoes', parentId: shoes.id })).resolves.toMatchObject(
      { name: 'Shoes' },
    );
  });

  it('refuses a subcategory of a subcategory', async () => {
    const { deps, brand } = await setUp();
    const shoes = await createCategory(deps, { brandId: brand.id, name: 'Shoes' });
    const boots = await createCategory(deps, { brandId: brand.id, name: 'Boots', parentId: shoes.id });
    const error = await refusal(createCategory(deps, { brandId: brand.id, name: 'Chelsea', parentId: boots.id }));
    expect(error.code).toBe('validation_failed');
  });

  it("treats another brand's parent as missing", async () => {
    const { deps, brand, uow, clock } = await setUp();
    const other = await createBrand({ uow, clock }, { name: 'Other', currency: 'EUR' });
    const theirs = await createCategory(deps, { brandId: other.id, name: 'Shoes' });
    const error = await refusal(createCategory(deps, { brandId: brand.id, name: 'Boots', parentId: theirs.id }));
    expect(error.code).toBe('not_found');
  });

  it('renames a category, allows a change of letter case only, and refuses a taken name', async () => {
    const { deps, brand, clock } = await setUp();
    const shoes = await createCategory(deps, { brandId: brand.id, name: 'Shoes' });
    await createCategory(deps, { brandId: brand.id, name: 'Bags' });
    clock.advance(1000);

    const renamed = await updateCategory(deps, { brandId: brand.id, id: shoes.id, name: 'SHOES' });
    const refused = await refusal(updateCategory(deps, { brandId: brand.id, id: shoes.id, name: 'bags' }));

    expect(renamed).toEqual({ ...shoes, name: 'SHOES', updatedAt: clock.now() });
    expect(refused.data).toEqual({ legacyCode: 40001 });
  });

  it('deletes a category with its subcategories and detaches its products', async () => {
    const { deps, brand, uow } = await setUp();
    const shoes = await createCategory(deps, { brandId: brand.id, name: 'Shoes' });
    const boots = await createCategory(deps, { brandId: brand.id, name: 'Boots', parentId: shoes.id });
    const bags = await createCategory(deps, { brandId: brand.id, name: 'Bags' });
    const { aggregate } = await createLegacyProduct(deps, {
      brandId: brand.id,
      product: {
        itemNumber: 'P-1',
        name: 'Boot',
        variants: [{ sku: 'S-1', attributes: { size: '40' }, prices: { EUR: { salesPrice: 10 } } }],
      },
    });
    await uow.run((tx) =>
      tx.products.saveAll(brand.id, [
        { ...aggregate, product: { ...aggregate.product, categoryIds: [boots.id, bags.id] } },
      ]),
    );

    await deleteCategory(deps, { brandId: brand.id, id: shoes.id });

    const left = await listCategories(deps, { brandId: brand.id, query: {} });
    expect(left.page.items.map((c) => c.name)).toEqual(['Bags']);
    const [product] = await uow.read((r) => r.products.findByIds(brand.id, [aggregate.product.id]));
    expect(product!.product.categoryIds).toEqual([bags.id]);
  });

  it('includes children and products when asked', async () => {
    const { deps, brand, uow } = await setUp();
    const shoes = await createCategory(deps, { brandId: brand.id, name: 'Shoes' });
    const boots = await createCategory(deps, { brandId: brand.id, name: 'Boots', parentId: shoes.id });
    const { aggregate } = await createLegacyProduct(deps, {
      brandId: brand.id,
      product: {
        itemNumber: 'P-1',
        name: 'Boot',
        variants: [{ sku: 'S-1', attributes: { size: '40' }, prices: { EUR: { salesPrice: 10 } } }],
      },
    });
    await uow.run((tx) =>
      tx.products.saveAll(brand.id, [{ ...aggregate, product: { ...aggregate.product, categoryIds: [shoes.id] } }]),
    );

    const view = await getCategory(deps, { brandId: brand.id, id: shoes.id, includes: ['children', 'products'] });

    expect(view.relations.children.get(shoes.id)).toEqual([boots]);
    expect(view.relations.products.get(shoes.id)?.map((a) => a.product.itemNumber)).toEqual(['P-1']);
  });

  it('refuses an unknown include and a cursor on the older lists', async () => {
    const { deps, brand } = await setUp();
    expect((await refusal(getCategory(deps, { brandId: brand.id, id: 1, includes: ['parent'] }))).code).toBe(
      'invalid_list_query',
    );
    const cursor = await refusal(listCategories(deps, { brandId: brand.id, query: { starting_after: '3' } }));
    expect([cursor.code, cursor.violations[0]?.pointer]).toEqual(['invalid_list_query', '/starting_after']);
  });
});

describe('older interface: collections', () => {
  it('creates a collection visible to every customer of the brand by default', async () => {
    const { deps, brand } = await setUp();
    const collection = await createCollection(deps, { brandId: brand.id, title: 'Spring 2026' });
    expect(collection).toEqual({
      id: collection.id,
      brandId: brand.id,
      title: 'Spring 2026',
      active: true,
      visibility: 'own_entity',
      allowedCustomerIds: [],
      createdAt: START,
      updatedAt: START,
    });
  });

  it('keeps the allowed customers of a custom collection, and refuses customers of other brands', async () => {
    const { deps, brand, uow, clock } = await setUp();
    const other = await createBrand({ uow, clock }, { name: 'Other', currency: 'EUR' });
    const [mine] = await syncCustomers(deps, {
      brandId: brand.id,
      customers: [{ customerNumber: 'C-1', name: 'Shop', currency: 'EUR' }],
    });
    const [theirs] = await syncCustomers(deps, {
      brandId: other.id,
      customers: [{ customerNumber: 'C-1', name: 'Shop', currency: 'EUR' }],
    });

    const collection = await createCollection(deps, {
      brandId: brand.id,
      title: 'VIP',
      visibility: 'customers_custom',
      allowedCustomerIds: [mine!.id!],
    });
    const refused = await refusal(
      createCollection(deps, {
        brandId: brand.id,
        title: 'VIP',
        visibility: 'customers_custom',
        allowedCustomerIds: [mine!.id!, theirs!.id!],
      }),
    );

    expect(collection.allowedCustomerIds).toEqual([mine!.id]);
    expect(refused.violations).toEqual([
      { pointer: '/collection/allowed_customers/1', detail: expect.stringContaining('does not exist') },
    ]);
  });

  it('refuses an unknown visibility', async () => {
    const { deps, brand } = await setUp();
    const error = await refusal(createCollection(deps, { brandId: brand.id, title: 'X', visibility: 'everyone' }));
    expect(error.violations.map((v) => v.pointer)).toEqual(['/collection/visibility']);
  });
});
