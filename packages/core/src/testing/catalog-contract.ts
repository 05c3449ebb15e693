import {
  Category,
  Collection,
  CostPriceSet,
  Drop,
  Product,
  ProductAggregate,
  ProductImage,
  ProductLocale,
  ProductSupplierLink,
  ProductTranslation,
  Subbrand,
  Variant,
  VariantCostPrice,
  VariantPrice,
  VariantRecord,
} from '../catalog/catalog.entities';
import {
  availableStockListDefinition,
  categoryListDefinition,
  collectionListDefinition,
  dropListDefinition,
  inventoryLocationListDefinition,
  legacyProductListDefinition,
  productListDefinition,
  variantListDefinition,
} from '../catalog/catalog.list-definitions';
import { VariantRef } from '../catalog/catalog.ports';
import { Brand, User } from '../identity/identity.entities';
import { DEFAULT_LOCATION_NAME, ensureDefaultLocation } from '../inventory/ensure-default-location';
import {
  AvailableStock,
  InventoryLocation,
  NewStockMovement,
  StockBalance,
  StockMovement,
} from '../inventory/inventory.entities';
import { ListDefinition, ListQuery, ListRows, RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DecodedCursor } from '../listing/validate-list-query';
import { FixedClock } from '../shared/clock.ports';
import { isDomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { Supplier } from '../suppliers/supplier.entities';
import {
  ContractStorage,
  insertBrand,
  PlannedFailure,
  SLOW,
  useContractStorage,
  walkByCursor,
  walkByOffset,
} from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

const ascending = (values: number[]): number[] => [...values].sort((a, b) => a - b);
const byId = <T extends { id: number }>(items: T[]): T[] => [...items].sort((a, b) => a.id - b.id);
const byProductId = (items: ProductAggregate[]): ProductAggregate[] =>
  [...items].sort((a, b) => a.product.id - b.product.id);
const byVariantId = (items: VariantRef[]): VariantRef[] => [...items].sort((a, b) => a.variant.id - b.variant.id);
const text = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * An aggregate in the order every adapter reads it back: variants by (position, id), prices by
 * currency, cost prices by cost price set id, supplier links by supplier id, translations by
 * locale id, a product's category ids and a variant's drop ids ascending. Tags, colli and a
 * collection's allowed customers keep the order they were saved in.
 */
export function canonicalAggregate(aggregate: ProductAggregate): ProductAggregate {
  return {
    product: { ...aggregate.product, categoryIds: ascending(aggregate.product.categoryIds) },
    variants: [...aggregate.variants]
      .sort((a, b) => a.variant.position - b.variant.position || a.variant.id - b.variant.id)
      .map((r) => ({
        variant: { ...r.variant, dropIds: ascending(r.variant.dropIds) },
        prices: [...r.prices].sort((a, b) => text(a.currency, b.currency)),
        costPrices: [...r.costPrices].sort((a, b) => a.costPriceSetId - b.costPriceSetId),
      })),
    suppliers: [...aggregate.suppliers].sort((a, b) => a.supplierId - b.supplierId),
    translations: [...aggregate.translations].sort((a, b) => a.localeId - b.localeId),
  };
}

type PriceSpec = Partial<VariantPrice> & { currency: string };
type VariantSpec = Partial<Omit<Variant, 'brandId' | 'productId'>> & {
  prices?: PriceSpec[];
  costPrices?: Omit<VariantCostPrice, 'variantId'>[];
};
type ProductSpec = Partial<Omit<Product, 'brandId'>> & {
  variants?: VariantSpec[];
  suppliers?: Omit<ProductSupplierLink, 'productId'>[];
  translations?: Omit<ProductTranslation, 'productId'>[];
};

/** Draws the ids a spec leaves open inside `tx` and builds the aggregate (children in the order given). */
async function draftProduct(
  tx: Pick<Repositories, 'ids'>,
  brandId: number,
  spec: ProductSpec = {},
): Promise<ProductAggregate> {
  const { variants: variantSpecs = [{}], suppliers = [], translations = [], ...fields } = spec;
  const id = fields.id ?? (await tx.ids.next('products'))[0]!;
  const open = variantSpecs.filter((v) => v.id === undefined).length;
  const freshIds = open > 0 ? await tx.ids.next('variants', open) : [];
  let next = 0;
  const product: Product = {
    id,
    brandId,
    itemNumber: `P-${id}`,
    name: `Product ${id}`,
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
    createdAt: T0,
    updatedAt: T0,
    ...fields,
  };
  const variants = variantSpecs.map((vs, index): VariantRecord => {
    const { prices = [{ currency: 'EUR' }], costPrices = [], ...variantFields } = vs;
    const variantId = variantFields.id ?? freshIds[next++]!;
    return {
      variant: {
        id: variantId,
        brandId,
        productId: id,
        sku: `SKU-${variantId}`,
        ean: null,
        attributes: { size: 'M' },
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
        position: index + 1,
        dropIds: [],
        createdAt: T0,
        updatedAt: T0,
        ...variantFields,
      },
      prices: prices.map((p) => ({
        variantId,
        salesPrice: 1000,
        recSalesPrice: 2500,
        offerPrice: null,
        b2cOfferPrice: null,
        ...p,
      })),
      costPrices: costPrices.map((c) => ({ ...c, variantId })),
    };
  });
  return {
    product,
    variants,
    suppliers: suppliers.map((l) => ({ ...l, productId: id })),
    translations: translations.map((t) => ({ ...t, productId: id })),
  };
}

/** A stock movement of `delta` pieces in stock (and `reserved` reserved) with no document. */
function aMovement(
  brandId: number,
  variantId: number,
  locationId: number,
  delta: number,
  reserved = 0,
  overrides: Partial<NewStockMovement> = {},
): NewStockMovement {
  return {
    brandId,
    variantId,
    locationId,
    inStockDelta: delta,
    reservedDelta: reserved,
    reason: 'api_quantity',
    note: null,
    documentType: null,
    documentId: null,
    userId: null,
    ...overrides,
  };
}

/**
 * The repository contract of the catalog and inventory ports (products and variants, categories,
 * collections, subbrands, drops, cost price sets, product locales, images, inventory locations,
 * stock balances and their ledger), run against every storage adapter like
 * `describeRepositoryContract`. `open` is called once per suite; every test makes its own
 * brand(s). Orders are those `canonicalAggregate` documents; lookups whose order the ports do not
 * promise are compared after sorting by id. No test relies on ids being consecutive.
 *
 * @example
 * describeCatalogContract('in-memory catalog', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);

    // ---- builders -------------------------------------------------------------------------

    const aBrand = (label = 'Catalog brand'): Promise<Brand> => insertBrand(uow(), label, T0);

    async function aUser(brandId: number): Promise<User> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('users');
        const user: User = { id: id!, brandId, email: `stock${id}@brand.example`, name: `User ${id}`, createdAt: T0 };
        await tx.users.insert(user);
        return user;
      });
    }

    async function aSupplier(brandId: number): Promise<Supplier> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('suppliers');
        const supplier: Supplier = {
          id: id!,
          brandId,
          supplierNumber: `S-${id}`,
          name: `Supplier ${id}`,
          currency: 'EUR',
          active: true,
          email: null,
          addresses: [],
          createdAt: T0,
          updatedAt: T0,
        };
        await tx.suppliers.save(supplier);
        return supplier;
      });
    }

    async function aCostPriceSet(
      brandId: number,
      fields: Partial<Omit<CostPriceSet, 'id' | 'brandId'>> = {},
    ): Promise<CostPriceSet> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('cost_price_sets');
        const set: CostPriceSet = {
          id: id!,
          brandId,
          label: `Set ${id}`,
          currency: 'EUR',
          isDefault: false,
          createdAt: T0,
          ...fields,
        };
        await tx.costPriceSets.insert(set);
        return set;
      });
    }

    async function aLocale(brandId: number, code: string, localeName = `Locale ${code}`): Promise<ProductLocale> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('product_locales');
        const locale: ProductLocale = { id: id!, brandId, code, name: localeName };
        await tx.productLocales.insert(locale);
        return locale;
      });
    }

    async function aDrop(
      brandId: number,
      code: string,
      fields: Partial<Omit<Drop, 'id' | 'brandId' | 'code'>> = {},
    ): Promise<Drop> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('drops');
        const drop: Drop = { id: id!, brandId, code, name: `Drop ${code}`, createdAt: T0, updatedAt: T0, ...fields };
        await tx.drops.insert(drop);
        return drop;
      });
    }

    async function aCategory(
      brandId: number,
      categoryName: string,
      parentId: number | null = null,
      fields: Partial<Category> = {},
    ): Promise<Category> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('categories');
        const category: Category = {
          id: id!,
          brandId,
          parentId,
          name: categoryName,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
        };
        await tx.categories.insert(category);
        return category;
      });
    }

    async function aCollection(
      brandId: number,
      fields: Partial<Omit<Collection, 'id' | 'brandId'>> = {},
    ): Promise<Collection> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('collections');
        const collection: Collection = {
          id: id!,
          brandId,
          title: `Collection ${id}`,
          active: true,
          visibility: 'own_entity',
          allowedCustomerIds: [],
          createdAt: T0,
          updatedAt: T0,
          ...fields,
        };
        await tx.collections.insert(collection);
        return collection;
      });
    }

    async function aSubbrand(brandId: number, subbrandName = 'Sub'): Promise<Subbrand> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('subbrands');
        const subbrand: Subbrand = { id: id!, brandId, name: `${subbrandName} ${id}`, createdAt: T0, updatedAt: T0 };
        await tx.subbrands.insert(subbrand);
        return subbrand;
      });
    }

    async function aLocation(
      brandId: number,
      fields: Partial<Omit<InventoryLocation, 'id' | 'brandId'>> = {},
    ): Promise<InventoryLocation> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('inventory_locations');
        const location: InventoryLocation = {
          id: id!,
          brandId,
          name: `Location ${id}`,
          isDefault: false,
          createdAt: T0,
          updatedAt: T0,
          ...fields,
        };
        await tx.inventoryLocations.insert(location);
        return location;
      });
    }

    /** Saves one new product (one variant priced in EUR unless the spec says otherwise); returns it as adapters read it back. */
    async function aProduct(brandId: number, spec: ProductSpec = {}): Promise<ProductAggregate> {
      return uow().run(async (tx) => {
        const aggregate = await draftProduct(tx, brandId, spec);
        await tx.products.saveAll(brandId, [aggregate]);
        return canonicalAggregate(aggregate);
      });
    }

    async function anImage(
      tx: Pick<Repositories, 'ids'>,
      brandId: number,
      productId: number,
      fields: Partial<Omit<ProductImage, 'brandId' | 'productId'>> = {},
    ): Promise<ProductImage> {
      const id = fields.id ?? (await tx.ids.next('product_images'))[0]!;
      return {
        id,
        brandId,
        productId,
        blobKey: `brand-${brandId}/images/${id}.jpg`,
        sourceUrl: `https://cdn.example/${brandId}/${id}.jpg`,
        existanceKey: null,
        contentType: 'image/jpeg',
        sizeBytes: 1024,
        alt: null,
        filename: null,
        sort: 1,
        sortB2c: null,
        variantIds: [],
        createdAt: T0,
        updatedAt: T0,
        ...fields,
      };
    }

    const byItemNumbers = (brandId: number, itemNumbers: string[]) =>
      uow().read((r) => r.products.findByItemNumbers(brandId, itemNumbers));
    const oneProduct = async (brandId: number, productId: number): Promise<ProductAggregate | undefined> =>
      (await uow().read((r) => r.products.findByIds(brandId, [productId])))[0];
    const ref = (record: VariantRecord, itemNumber: string): VariantRef => ({ variant: record.variant, itemNumber });

    // ---- products -------------------------------------------------------------------------

    describe('products', () => {
      it('saves a product aggregate with every field and child and reads back exactly what was saved', async () => {
        const brand = await aBrand();
        const [wholesaleSupplier, fabricSupplier] = [await aSupplier(brand.id), await aSupplier(brand.id)];
        const eurSet = await aCostPriceSet(brand.id, { label: 'Default EUR', currency: 'EUR', isDefault: true });
        const usdSet = await aCostPriceSet(brand.id, { label: 'Landed USD', currency: 'USD' });
        const [de, fr] = [await aLocale(brand.id, 'de', 'Deutsch'), await aLocale(brand.id, 'fr', 'Français')];
        const [spring, summer] = [await aDrop(brand.id, 'SS26-1'), await aDrop(brand.id, 'SS26-2')];
        const top = await aCategory(brand.id, 'Outerwear');
        const sub = await aCategory(brand.id, 'Trench coats', top.id);
        const collection = await aCollection(brand.id);
        const subbrand = await aSubbrand(brand.id);

        const saved = await aProduct(brand.id, {
          itemNumber: 'TRENCH-01',
          name: 'Trench coat "Hamburg" — Øko',
          description: 'Water-repellent cotton gabardine.\nTwo lines.',
          active: false,
          makeToOrderB2b: true,
          makeToOrderB2c: true,
          meta: {
            season: 'SS26',
            fit: { type: 'relaxed', stretch: false },
            care: ['wash 30', 'no tumble'],
            score: 4.5,
            discontinued: null,
            empty: {},
          },
          weight: 1500,
          weightType: 'kg',
          noInventory: true,
          releaseDate: '2026-03-15',
          noos: true,
          minOrderQuantity: 6,
          customSort: -3,
          orderColliOnly: true,
          colli: [12, 6, 24],
          url: 'https://shop.example/trench-hamburg',
          metaTitle: 'Trench Hamburg',
          metaDescription: 'The classic trench.',
          tags: ['outerwear', 'bestseller', 'Ärmel'],
          useSortB2c: true,
          subbrandId: subbrand.id,
          collectionId: collection.id,
          categoryIds: [top.id, sub.id],
          createdAt: '2026-01-02T03:04:05.678Z',
          updatedAt: '2026-01-03T03:04:05.678Z',
          suppliers: [
            {
              supplierId: wholesaleSupplier.id,
              primary: true,
              leadTimeType: 'weeks',
              leadTimeFrom: 4,
              leadTimeTo: 6,
              costPriceSetId: eurSet.id,
            },
            {
              supplierId: fabricSupplier.id,
              primary: false,
              leadTimeType: 'days',
              leadTimeFrom: null,
              leadTimeTo: null,
              costPriceSetId: null,
            },
          ],
          translations: [
            {
              localeId: de.id,
              name: 'Trenchcoat „Hamburg“',
              description: 'Wasserabweisend.',
              metaTitle: 'Trenchcoat',
              metaDescription: 'Der Klassiker.',
            },
            { localeId: fr.id, name: 'Trench « Hambourg »', description: null, metaTitle: null, metaDescription: null },
          ],
          variants: [
            {
              sku: 'TRENCH-01-BEIGE-M',
              ean: '5701234567890',
              attributes: { color: 'Beige', size: 'M', 'fit code': 'R-02' },
              archived: true,
              b2cAvailable: false,
              makeToOrderB2b: false,
              makeToOrderB2c: true,
              noos: false,
              weight: 1450,
              weightType: 'g',
              releaseDate: '2026-04-01',
              meta: { supplier_color: 'Sand 12', lot: 7, flags: [true, false] },
              picture: 'https://cdn.example/trench-beige.jpg',
              position: 1,
              dropIds: [spring.id, summer.id],
              createdAt: '2026-01-02T03:04:05.678Z',
              updatedAt: '2026-01-04T00:00:00.001Z',
              prices: [
                {
                  currency: 'DKK',
                  salesPrice: 89_500,
                  recSalesPrice: 179_900,
                  offerPrice: 79_500,
                  b2cOfferPrice: 149_900,
                },
                { currency: 'EUR', salesPrice: 12_000, recSalesPrice: 24_995, offerPrice: null, b2cOfferPrice: 19_995 },
                { currency: 'USD', salesPrice: 13_050, recSalesPrice: 26_900, offerPrice: 11_000, b2cOfferPrice: null },
              ],
              costPrices: [
                { costPriceSetId: eurSet.id, costPrice: 4_210 },
                { costPriceSetId: usdSet.id, costPrice: 4_733 },
              ],
            },
            {
              sku: 'TRENCH-01-BEIGE-L',
              ean: null,
              attributes: { color: 'Beige', size: 'L' },
              position: 2,
              prices: [{ currency: 'EUR', salesPrice: 0, recSalesPrice: 0 }],
            },
          ],
        });

        expect(await byItemNumbers(brand.id, ['TRENCH-01'])).toStrictEqual([saved]);
        expect(await uow().read((r) => r.products.findByIds(brand.id, [saved.product.id]))).toStrictEqual([saved]);
      });

      it('keeps empty optional fields as null and empty collections empty', async () => {
        const brand = await aBrand();
        const saved = await aProduct(brand.id, { variants: [{ prices: [] }] });

        const found = await oneProduct(brand.id, saved.product.id);

        expect(found).toStrictEqual(saved);
        expect(found!.product).toMatchObject({
          description: null,
          weight: null,
          releaseDate: null,
          url: null,
          subbrandId: null,
          collectionId: null,
          meta: {},
          colli: [],
          tags: [],
          categoryIds: [],
        });
        expect(found!.variants[0]).toMatchObject({
          prices: [],
          costPrices: [],
          variant: { ean: null, noos: null, weightType: null, dropIds: [], meta: {} },
        });
        expect(found).toMatchObject({ suppliers: [], translations: [] });
      });

      it('reads children back in the documented order, whatever order they were saved in', async () => {
        const brand = await aBrand();
        const suppliers = [await aSupplier(brand.id), await aSupplier(brand.id), await aSupplier(brand.id)];
        const sets = [await aCostPriceSet(brand.id), await aCostPriceSet(brand.id, { currency: 'DKK' })];
        const locales = [await aLocale(brand.id, 'da'), await aLocale(brand.id, 'sv'), await aLocale(brand.id, 'nl')];
        const drops = [await aDrop(brand.id, 'D1'), await aDrop(brand.id, 'D2'), await aDrop(brand.id, 'D3')];
        const categories = [
          await aCategory(brand.id, 'One'),
          await aCategory(brand.id, 'Two'),
          await aCategory(brand.id, 'Three'),
        ];
        const variantIds = await uow().run((tx) => tx.ids.next('variants', 3));
        const [low, middle, high] = variantIds as [number, number, number];

        const saved = await uow().run(async (tx) => {
          const aggregate = await draftProduct(tx, brand.id, {
            tags: ['zeta', 'alpha', 'mid'],
            colli: [24, 6],
            categoryIds: [categories[2]!.id, categories[0]!.id, categories[1]!.id],
            suppliers: [...suppliers].reverse().map((s) => ({
              supplierId: s.id,
              primary: false,
              leadTimeType: 'weeks' as const,
              leadTimeFrom: null,
              leadTimeTo: null,
              costPriceSetId: null,
            })),
            translations: [...locales].reverse().map((l) => ({
              localeId: l.id,
              name: `Name ${l.code}`,
              description: null,
              metaTitle: null,
              metaDescription: null,
            })),
            variants: [
              { id: high, position: 1 },
              { id: low, position: 2 },
              {
                id: middle,
                position: 1,
                dropIds: [drops[2]!.id, drops[0]!.id, drops[1]!.id],
                prices: [{ currency: 'USD' }, { currency: 'DKK' }, { currency: 'EUR' }],
                costPrices: [...sets].reverse().map((s) => ({ costPriceSetId: s.id, costPrice: 100 })),
              },
            ],
          });
          await tx.products.saveAll(brand.id, [aggregate]);
          return aggregate;
        });
        const found = (await oneProduct(brand.id, saved.product.id))!;

        expect(found).toStrictEqual(canonicalAggregate(saved));
        expect(found.variants.map((r) => r.variant.id)).toEqual([middle, high, low]);
        expect(found.variants[0]!.prices.map((p) => p.currency)).toEqual(['DKK', 'EUR', 'USD']);
        expect(found.variants[0]!.costPrices.map((c) => c.costPriceSetId)).toEqual(sets.map((s) => s.id));
        expect(found.variants[0]!.variant.dropIds).toEqual(drops.map((d) => d.id));
        expect(found.product.categoryIds).toEqual(categories.map((c) => c.id));
        expect(found.suppliers.map((l) => l.supplierId)).toEqual(suppliers.map((s) => s.id));
        expect(found.translations.map((t) => t.localeId)).toEqual(locales.map((l) => l.id));
        expect(found.product.tags).toEqual(['zeta', 'alpha', 'mid']);
        expect(found.product.colli).toEqual([24, 6]);
      });

      it('on a second save updates the fields and makes every child collection exactly the new one', async () => {
        const brand = await aBrand();
        const [keepSupplier, dropSupplier, newSupplier] = [
          await aSupplier(brand.id),
          await aSupplier(brand.id),
          await aSupplier(brand.id),
        ];
        const [setA, setB] = [await aCostPriceSet(brand.id), await aCostPriceSet(brand.id, { currency: 'SEK' })];
        const [de, it_] = [await aLocale(brand.id, 'de'), await aLocale(brand.id, 'it')];
        const [d1, d2, d3] = [await aDrop(brand.id, 'R1'), await aDrop(brand.id, 'R2'), await aDrop(brand.id, 'R3')];
        const [c1, c2, c3] = [
          await aCategory(brand.id, 'Keep'),
          await aCategory(brand.id, 'Remove'),
          await aCategory(brand.id, 'Add'),
        ];
        const link = (supplierId: number, primary: boolean): Omit<ProductSupplierLink, 'productId'> => ({
          supplierId,
          primary,
          leadTimeType: 'weeks',
          leadTimeFrom: 2,
          leadTimeTo: 3,
          costPriceSetId: null,
        });
        const original = await aProduct(brand.id, {
          tags: ['old', 'kept'],
          categoryIds: [c1.id, c2.id],
          suppliers: [link(keepSupplier.id, true), link(dropSupplier.id, false)],
          translations: [{ localeId: de.id, name: 'Alt', description: 'alt', metaTitle: null, metaDescription: null }],
          variants: [
            {
              dropIds: [d1.id, d2.id],
              prices: [
                { currency: 'EUR', salesPrice: 100 },
                { currency: 'USD', salesPrice: 120 },
              ],
              costPrices: [{ costPriceSetId: setA.id, costPrice: 40 }],
            },
          ],
        });
        const [record] = original.variants;

        const updated: ProductAggregate = canonicalAggregate({
          product: {
            ...original.product,
            name: 'Renamed',
            tags: ['kept', 'new'],
            categoryIds: [c1.id, c3.id],
            colli: [4],
            meta: { only: 'this' },
            updatedAt: '2026-06-01T00:00:00.000Z',
          },
          suppliers: [
            { ...link(keepSupplier.id, false), leadTimeType: 'days', leadTimeTo: 10, productId: original.product.id },
            { ...link(newSupplier.id, true), costPriceSetId: setB.id, productId: original.product.id },
          ],
          translations: [
            {
              productId: original.product.id,
              localeId: de.id,
              name: 'Neu',
              description: null,
              metaTitle: 'Neu',
              metaDescription: null,
            },
            {
              productId: original.product.id,
              localeId: it_.id,
              name: 'Nuovo',
              description: null,
              metaTitle: null,
              metaDescription: null,
            },
          ],
          variants: [
            {
              variant: {
                ...record!.variant,
                attributes: { size: 'L', color: 'Red' },
                dropIds: [d2.id, d3.id],
                meta: { x: 1 },
              },
              prices: [
                { ...record!.prices[0]!, salesPrice: 150, offerPrice: 99 },
                {
                  variantId: record!.variant.id,
                  currency: 'GBP',
                  salesPrice: 90,
                  recSalesPrice: 180,
                  offerPrice: null,
                  b2cOfferPrice: null,
                },
              ],
              costPrices: [{ variantId: record!.variant.id, costPriceSetId: setB.id, costPrice: 410 }],
            },
          ],
        });

        await uow().run((tx) => tx.products.saveAll(brand.id, [updated]));

        expect(await oneProduct(brand.id, original.product.id)).toStrictEqual(updated);
      });

      it('clears every child collection when saved with none', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id);
        const locale = await aLocale(brand.id, 'de');
        const drop = await aDrop(brand.id, 'X');
        const category = await aCategory(brand.id, 'Gone');
        const set = await aCostPriceSet(brand.id);
        const original = await aProduct(brand.id, {
          tags: ['a'],
          categoryIds: [category.id],
          suppliers: [
            {
              supplierId: supplier.id,
              primary: true,
              leadTimeType: 'weeks',
              leadTimeFrom: null,
              leadTimeTo: null,
              costPriceSetId: set.id,
            },
          ],
          translations: [
            { localeId: locale.id, name: 'Name', description: null, metaTitle: null, metaDescription: null },
          ],
          variants: [{ dropIds: [drop.id], costPrices: [{ costPriceSetId: set.id, costPrice: 1 }] }],
        });
        const cleared: ProductAggregate = {
          product: { ...original.product, tags: [], categoryIds: [] },
          suppliers: [],
          translations: [],
          variants: original.variants.map((r) => ({
            variant: { ...r.variant, dropIds: [] },
            prices: [],
            costPrices: [],
          })),
        };

        await uow().run((tx) => tx.products.saveAll(brand.id, [cleared]));

        expect(await oneProduct(brand.id, original.product.id)).toStrictEqual(cleared);
      });

      it('leaves variants not in the saved aggregate, with their prices, untouched, and adds new ones', async () => {
        const brand = await aBrand();
        const original = await aProduct(brand.id, {
          variants: [
            { sku: 'KEEP-1', prices: [{ currency: 'EUR', salesPrice: 1 }] },
            { sku: 'CHANGE-2', prices: [{ currency: 'EUR', salesPrice: 2 }] },
            { sku: 'KEEP-3', prices: [{ currency: 'DKK', salesPrice: 3 }] },
          ],
        });
        const [keep1, change2, keep3] = original.variants as [VariantRecord, VariantRecord, VariantRecord];

        const result = await uow().run(async (tx) => {
          const [newId] = await tx.ids.next('variants');
          const changed: VariantRecord = {
            ...change2,
            variant: { ...change2.variant, archived: true },
            prices: [{ ...change2.prices[0]!, salesPrice: 22 }],
          };
          const added = (
            await draftProduct(tx, brand.id, {
              id: original.product.id,
              variants: [{ id: newId!, sku: 'NEW-4', position: 4 }],
            })
          ).variants[0]!;
          const partial: ProductAggregate = {
            ...original,
            product: { ...original.product, name: 'Partial save' },
            variants: [changed, added],
          };
          await tx.products.saveAll(brand.id, [partial]);
          return { changed, added, product: partial.product };
        });

        expect(await oneProduct(brand.id, original.product.id)).toStrictEqual({
          ...original,
          product: result.product,
          variants: [keep1, result.changed, keep3, result.added],
        });
      });

      it(
        'saves 100 products of 5 variants each in one call and finds them all by item number',
        async () => {
          const brand = await aBrand();
          const set = await aCostPriceSet(brand.id, { isDefault: true });
          const drop = await aDrop(brand.id, 'BULK');

          const saved = await uow().run(async (tx) => {
            const productIds = await tx.ids.next('products', 100);
            const variantIds = await tx.ids.next('variants', 500);
            const aggregates = await Promise.all(
              productIds.map((id, p) =>
                draftProduct(tx, brand.id, {
                  id,
                  itemNumber: `BULK-${String(p).padStart(3, '0')}`,
                  tags: [`t${p % 3}`],
                  variants: ['XS', 'S', 'M', 'L', 'XL'].map((size, v) => ({
                    id: variantIds[p * 5 + v]!,
                    sku: `BULK-${p}-${size}`,
                    ean: `57${String(p * 5 + v).padStart(11, '0')}`,
                    attributes: { size, color: 'Navy' },
                    dropIds: v % 2 === 0 ? [drop.id] : [],
                    prices: [
                      { currency: 'EUR', salesPrice: 1000 + p },
                      { currency: 'SEK', salesPrice: 11000 + v },
                    ],
                    costPrices: [{ costPriceSetId: set.id, costPrice: 400 + v }],
                  })),
                }),
              ),
            );
            await tx.products.saveAll(brand.id, aggregates);
            return aggregates.map(canonicalAggregate);
          });
          const found = await byItemNumbers(
            brand.id,
            saved.map((a) => a.product.itemNumber),
          );

          expect(found).toHaveLength(100);
          expect(byProductId(found)).toStrictEqual(byProductId(saved));
        },
        SLOW,
      );

      it('finds only the item numbers and ids asked for, none for empty lists, and none of another brand', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const one = await aProduct(brand.id, { itemNumber: 'FIND-1' });
        await aProduct(brand.id, { itemNumber: 'FIND-2' });
        const three = await aProduct(brand.id, { itemNumber: 'FIND-3' });
        const foreign = await aProduct(other.id, { itemNumber: 'FIND-1' });

        expect(byProductId(await byItemNumbers(brand.id, ['FIND-3', 'FIND-1', 'FIND-404']))).toStrictEqual([
          one,
          three,
        ]);
        expect(
          byProductId(
            await uow().read((r) =>
              r.products.findByIds(brand.id, [three.product.id, one.product.id, foreign.product.id]),
            ),
          ),
        ).toStrictEqual([one, three]);
        expect(await byItemNumbers(brand.id, [])).toStrictEqual([]);
        expect(await uow().read((r) => r.products.findByIds(brand.id, []))).toStrictEqual([]);
        expect(await byItemNumbers(other.id, ['FIND-1'])).toStrictEqual([foreign]);
        expect(await byItemNumbers(brand.id, ['find-1'])).toStrictEqual([]);
      });

      it('finds products by category, each once, in id order, with their whole aggregate', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const [shoes, boots, bags] = [
          await aCategory(brand.id, 'Shoes'),
          await aCategory(brand.id, 'Boots'),
          await aCategory(brand.id, 'Bags'),
        ];
        const both = await aProduct(brand.id, { categoryIds: [shoes.id, boots.id], variants: [{}, {}] });
        const onlyBoots = await aProduct(brand.id, { categoryIds: [boots.id] });
        await aProduct(brand.id, { categoryIds: [bags.id] });
        await aProduct(brand.id);

        expect(await uow().read((r) => r.products.findByCategoryIds(brand.id, [boots.id, shoes.id]))).toStrictEqual([
          both,
          onlyBoots,
        ]);
        expect(await uow().read((r) => r.products.findByCategoryIds(brand.id, []))).toStrictEqual([]);
        expect(await uow().read((r) => r.products.findByCategoryIds(other.id, [boots.id]))).toStrictEqual([]);
      });

      it("finds variants by SKU, EAN and id with their product's item number, never another brand's", async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const product = await aProduct(brand.id, {
          itemNumber: 'LOOKUP',
          variants: [
            { sku: 'LOOK-S', ean: '4000000000017' },
            { sku: 'LOOK-M', ean: '4000000000024' },
            { sku: 'LOOK-L', ean: null },
          ],
        });
        const foreign = await aProduct(other.id, {
          itemNumber: 'LOOKUP',
          variants: [{ sku: 'LOOK-S', ean: '4000000000017' }],
        });
        const [small, medium, large] = product.variants as [VariantRecord, VariantRecord, VariantRecord];

        expect(
          byVariantId(await uow().read((r) => r.products.findVariantsBySkus(brand.id, ['LOOK-L', 'LOOK-S', 'NOPE']))),
        ).toStrictEqual([ref(small, 'LOOKUP'), ref(large, 'LOOKUP')]);
        expect(
          byVariantId(
            await uow().read((r) => r.products.findVariantsByEans(brand.id, ['4000000000024', '4000000000017'])),
          ),
        ).toStrictEqual([ref(small, 'LOOKUP'), ref(medium, 'LOOKUP')]);
        expect(
          await uow().read((r) =>
            r.products.findVariantsByIds(brand.id, [medium.variant.id, foreign.variants[0]!.variant.id]),
          ),
        ).toStrictEqual([ref(medium, 'LOOKUP')]);
        expect(await uow().read((r) => r.products.findVariantsBySkus(other.id, ['LOOK-S', 'LOOK-M']))).toStrictEqual([
          ref(foreign.variants[0]!, 'LOOKUP'),
        ]);
        expect(await uow().read((r) => r.products.findVariantsBySkus(brand.id, []))).toStrictEqual([]);
        expect(await uow().read((r) => r.products.findVariantsByEans(brand.id, []))).toStrictEqual([]);
        expect(await uow().read((r) => r.products.findVariantsByIds(brand.id, []))).toStrictEqual([]);
      });

      it("finds saleable variants by SKU or EAN with their product terms and prices, never another brand's", async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const product = await aProduct(brand.id, {
          itemNumber: 'SELL',
          variants: [
            { sku: 'SELL-S', ean: '4000000000031' },
            { sku: 'SELL-M', ean: '4000000000048' },
            { sku: 'SELL-L', ean: null },
          ],
        });
        await aProduct(other.id, { itemNumber: 'SELL', variants: [{ sku: 'SELL-S', ean: '4000000000031' }] });
        const [small, medium, large] = product.variants as [VariantRecord, VariantRecord, VariantRecord];
        const { categoryIds: _categoryIds, ...terms } = product.product;
        const saleable = (record: VariantRecord) => {
          const { dropIds: _dropIds, ...variant } = record.variant;
          return { variant, product: terms, prices: record.prices };
        };

        expect(
          await uow().read((r) => r.products.findSaleableVariants(brand.id, { skus: ['SELL-L', 'SELL-S', 'NOPE'] })),
        ).toStrictEqual([saleable(small), saleable(large)]);
        expect(
          await uow().read((r) =>
            r.products.findSaleableVariants(brand.id, { eans: ['4000000000048'], skus: ['SELL-M', 'SELL-S'] }),
          ),
        ).toStrictEqual([saleable(small), saleable(medium)]);
        expect(await uow().read((r) => r.products.findSaleableVariants(brand.id, {}))).toStrictEqual([]);
      });

      it('lets two brands use the same item number and SKU', async () => {
        const a = await aBrand('A');
        const b = await aBrand('B');

        const inA = await aProduct(a.id, { itemNumber: 'SHARED', variants: [{ sku: 'SHARED-1' }] });
        const inB = await aProduct(b.id, { itemNumber: 'SHARED', variants: [{ sku: 'SHARED-1' }] });

        expect(await byItemNumbers(a.id, ['SHARED'])).toStrictEqual([inA]);
        expect(await byItemNumbers(b.id, ['SHARED'])).toStrictEqual([inB]);
      });

      it('deletes a product with its variants and everything hanging off them, and nothing of another product', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id);
        const locale = await aLocale(brand.id, 'de');
        const set = await aCostPriceSet(brand.id);
        const drop = await aDrop(brand.id, 'DEL');
        const category = await aCategory(brand.id, 'Kept');
        const location = await aLocation(brand.id);
        const spec = (itemNumber: string): ProductSpec => ({
          itemNumber,
          categoryIds: [category.id],
          suppliers: [
            {
              supplierId: supplier.id,
              primary: true,
              leadTimeType: 'weeks',
              leadTimeFrom: null,
              leadTimeTo: null,
              costPriceSetId: set.id,
            },
          ],
          translations: [
            { localeId: locale.id, name: itemNumber, description: null, metaTitle: null, metaDescription: null },
          ],
          variants: [
            { dropIds: [drop.id], costPrices: [{ costPriceSetId: set.id, costPrice: 5 }] },
            { dropIds: [drop.id] },
          ],
        });
        const doomed = await aProduct(brand.id, spec('DOOMED'));
        const kept = await aProduct(brand.id, spec('KEPT'));
        const allVariantIds = [...doomed.variants, ...kept.variants].map((r) => r.variant.id);
        await uow().run(async (tx) => {
          await tx.stock.apply(
            brand.id,
            allVariantIds.map((id) => aMovement(brand.id, id, location.id, 3)),
            T0,
          );
          await tx.productImages.saveAll([
            await anImage(tx, brand.id, doomed.product.id),
            await anImage(tx, brand.id, kept.product.id, { variantIds: [kept.variants[0]!.variant.id] }),
          ]);
        });
        const keptImages = await uow().read((r) => r.productImages.findByProductIds(brand.id, [kept.product.id]));
        const keptBalances = await uow().read((r) =>
          r.stock.balances(
            brand.id,
            kept.variants.map((v) => v.variant.id),
          ),
        );

        await uow().run((tx) => tx.products.deleteProduct(brand.id, doomed.product.id));

        const doomedVariantIds = doomed.variants.map((r) => r.variant.id);
        expect(await byItemNumbers(brand.id, ['DOOMED', 'KEPT'])).toStrictEqual([kept]);
        expect(await uow().read((r) => r.products.findVariantsByIds(brand.id, doomedVariantIds))).toStrictEqual([]);
        expect(
          await uow().read((r) =>
            r.products.findVariantsBySkus(
              brand.id,
              doomed.variants.map((v) => v.variant.sku),
            ),
          ),
        ).toStrictEqual([]);
        expect(
          await uow().read((r) => r.productImages.findByProductIds(brand.id, [doomed.product.id, kept.product.id])),
        ).toStrictEqual(keptImages);
        expect(await uow().read((r) => r.stock.balances(brand.id, allVariantIds))).toStrictEqual(keptBalances);
        expect(await uow().read((r) => r.stock.movements(brand.id, doomedVariantIds[0]!, 10))).toStrictEqual([]);
        expect(await uow().read((r) => r.categories.findByIds(brand.id, [category.id]))).toStrictEqual([category]);
      });

      it('deletes a variant with its prices, cost prices and stock, detaches it from images, and keeps its siblings', async () => {
        const brand = await aBrand();
        const set = await aCostPriceSet(brand.id);
        const location = await aLocation(brand.id);
        const product = await aProduct(brand.id, {
          variants: [
            { sku: 'SIB-1', costPrices: [{ costPriceSetId: set.id, costPrice: 5 }] },
            { sku: 'GONE-2', costPrices: [{ costPriceSetId: set.id, costPrice: 6 }] },
          ],
        });
        const [sibling, doomed] = product.variants as [VariantRecord, VariantRecord];
        const image = await uow().run(async (tx) => {
          await tx.stock.apply(
            brand.id,
            [
              aMovement(brand.id, sibling.variant.id, location.id, 1),
              aMovement(brand.id, doomed.variant.id, location.id, 2),
            ],
            T0,
          );
          const saved = await anImage(tx, brand.id, product.product.id, {
            variantIds: [sibling.variant.id, doomed.variant.id],
          });
          await tx.productImages.saveAll([saved]);
          return saved;
        });
        const siblingBalances = await uow().read((r) => r.stock.balances(brand.id, [sibling.variant.id]));

        await uow().run((tx) => tx.products.deleteVariant(brand.id, doomed.variant.id));

        expect(await oneProduct(brand.id, product.product.id)).toStrictEqual({ ...product, variants: [sibling] });
        expect(await uow().read((r) => r.products.findVariantsBySkus(brand.id, ['GONE-2']))).toStrictEqual([]);
        expect(
          await uow().read((r) => r.stock.balances(brand.id, [sibling.variant.id, doomed.variant.id])),
        ).toStrictEqual(siblingBalances);
        expect(await uow().read((r) => r.stock.movements(brand.id, doomed.variant.id, 10))).toStrictEqual([]);
        expect(await uow().read((r) => r.productImages.findByProductIds(brand.id, [product.product.id]))).toStrictEqual(
          [{ ...image, variantIds: [sibling.variant.id] }],
        );
      });

      it("neither deletes nor reports dependents of another brand's product or variant", async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const product = await aProduct(brand.id, { variants: [{}, {}] });

        await uow().run(async (tx) => {
          await tx.products.deleteVariant(other.id, product.variants[0]!.variant.id);
          await tx.products.deleteProduct(other.id, product.product.id);
        });

        expect(await oneProduct(brand.id, product.product.id)).toStrictEqual(product);
      });

      it('reports no dependents for a product or variant nothing refers to', async () => {
        const brand = await aBrand();
        const product = await aProduct(brand.id);

        expect(await uow().read((r) => r.products.dependentsOfProduct(brand.id, product.product.id))).toStrictEqual([]);
        expect(
          await uow().read((r) => r.products.dependentsOfVariant(brand.id, product.variants[0]!.variant.id)),
        ).toStrictEqual([]);
      });

      it('leaves nothing of a saveAll whose transaction fails', async () => {
        const brand = await aBrand();

        await expect(
          uow().run(async (tx) => {
            await tx.products.saveAll(brand.id, [
              await draftProduct(tx, brand.id, { itemNumber: 'ROLLED-BACK', variants: [{ sku: 'ROLLED-BACK-1' }] }),
            ]);
            throw new PlannedFailure('after saving a product');
          }),
        ).rejects.toThrow(PlannedFailure);

        expect(await byItemNumbers(brand.id, ['ROLLED-BACK'])).toStrictEqual([]);
        expect(await uow().read((r) => r.products.findVariantsBySkus(brand.id, ['ROLLED-BACK-1']))).toStrictEqual([]);
      });
    });

    // ---- categories -----------------------------------------------------------------------

    describe('categories', () => {
      it('stores top categories and subcategories and finds them by ids', async () => {
        const brand = await aBrand();
        const top = await aCategory(brand.id, 'Women', null, {
          createdAt: '2026-02-01T10:00:00.000Z',
          updatedAt: '2026-02-02T10:00:00.000Z',
        });
        const sub = await aCategory(brand.id, 'Dresses', top.id);

        expect(
          byId(await uow().read((r) => r.categories.findByIds(brand.id, [sub.id, top.id, 987_654_321]))),
        ).toStrictEqual([top, sub]);
        expect(await uow().read((r) => r.categories.findByIds(brand.id, []))).toStrictEqual([]);
      });

      it('updates the name and parent of a category, but never one of another brand', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const men = await aCategory(brand.id, 'Men');
        const shirts = await aCategory(brand.id, 'Shirts');
        const renamed: Category = {
          ...shirts,
          name: 'Shirts & Tops',
          parentId: men.id,
          updatedAt: '2026-03-03T00:00:00.000Z',
        };

        await uow().run(async (tx) => {
          await tx.categories.update(renamed);
          await tx.categories.update({ ...men, brandId: other.id, name: 'Hijacked' });
        });

        expect(byId(await uow().read((r) => r.categories.findByIds(brand.id, [men.id, shirts.id])))).toStrictEqual([
          men,
          renamed,
        ]);
        expect(await uow().read((r) => r.categories.findByIds(other.id, [men.id]))).toStrictEqual([]);
      });

      it('finds categories by parent and name, ignoring the case of the name but never the parent', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const jackets = await aCategory(brand.id, 'Jackets');
        const men = await aCategory(brand.id, 'Men');
        const menJackets = await aCategory(brand.id, 'Jackets', men.id);
        const umlaut = await aCategory(brand.id, 'Überjacken', men.id);
        await aCategory(other.id, 'Jackets');
        const find = (keys: { parentId: number | null; name: string }[]) =>
          uow().read(async (r) => byId(await r.categories.findByNames(brand.id, keys)));

        expect(await find([{ parentId: null, name: 'JACKETS' }])).toStrictEqual([jackets]);
        expect(await find([{ parentId: men.id, name: 'jackets' }])).toStrictEqual([menJackets]);
        expect(await find([{ parentId: men.id, name: 'überJACKEN' }])).toStrictEqual([umlaut]);
        expect(
          await find([
            { parentId: null, name: 'jackets' },
            { parentId: men.id, name: 'Jackets' },
            { parentId: null, name: 'men' },
          ]),
        ).toStrictEqual([jackets, men, menJackets]);
        expect(
          await find([
            { parentId: jackets.id, name: 'Jackets' },
            { parentId: null, name: 'Jacket' },
          ]),
        ).toStrictEqual([]);
        expect(await find([])).toStrictEqual([]);
      });

      it('finds the children of the given parents', async () => {
        const brand = await aBrand();
        const [women, men, kids] = [
          await aCategory(brand.id, 'Women'),
          await aCategory(brand.id, 'Men'),
          await aCategory(brand.id, 'Kids'),
        ];
        const dresses = await aCategory(brand.id, 'Dresses', women.id);
        const suits = await aCategory(brand.id, 'Suits', men.id);
        await aCategory(brand.id, 'Toys', kids.id);

        expect(byId(await uow().read((r) => r.categories.findChildren(brand.id, [women.id, men.id])))).toStrictEqual([
          dresses,
          suits,
        ]);
        expect(await uow().read((r) => r.categories.findChildren(brand.id, [dresses.id]))).toStrictEqual([]);
        expect(await uow().read((r) => r.categories.findChildren(brand.id, []))).toStrictEqual([]);
      });

      it('deletes categories and detaches their products without deleting them', async () => {
        const brand = await aBrand();
        const top = await aCategory(brand.id, 'Sale');
        const sub = await aCategory(brand.id, 'Last chance', top.id);
        const kept = await aCategory(brand.id, 'Basics');
        const inBoth = await aProduct(brand.id, { categoryIds: [top.id, sub.id, kept.id] });
        const onlySub = await aProduct(brand.id, { categoryIds: [sub.id] });

        await uow().run((tx) => tx.categories.delete(brand.id, [sub.id, top.id]));

        expect(await uow().read((r) => r.categories.findByIds(brand.id, [top.id, sub.id, kept.id]))).toStrictEqual([
          kept,
        ]);
        expect(await oneProduct(brand.id, inBoth.product.id)).toStrictEqual({
          ...inBoth,
          product: { ...inBoth.product, categoryIds: [kept.id] },
        });
        expect(await oneProduct(brand.id, onlySub.product.id)).toStrictEqual({
          ...onlySub,
          product: { ...onlySub.product, categoryIds: [] },
        });
        expect(await uow().read((r) => r.products.findByCategoryIds(brand.id, [top.id, sub.id]))).toStrictEqual([]);
      });

      it("never deletes another brand's category", async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const category = await aCategory(brand.id, 'Mine');

        await uow().run((tx) => tx.categories.delete(other.id, [category.id]));

        expect(await uow().read((r) => r.categories.findByIds(brand.id, [category.id]))).toStrictEqual([category]);
        expect(await uow().read((r) => r.categories.findChildren(other.id, [category.id]))).toStrictEqual([]);
        expect(
          await uow().read((r) => r.categories.findByNames(other.id, [{ parentId: null, name: 'Mine' }])),
        ).toStrictEqual([]);
      });

      it("lists the brand's categories with filters, sorted, with the total", async () => {
        const brand = await aBrand();
        const neighbour = await aBrand('Neighbour');
        await aCategory(neighbour.id, 'Accessories');
        const shoes = await aCategory(brand.id, 'Shoes');
        const accessories = await aCategory(brand.id, 'Accessories');
        const sneakers = await aCategory(brand.id, 'Sneakers', shoes.id);
        const belts = await aCategory(brand.id, 'Belts', accessories.id);
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(categoryListDefinition, { brandId: brand.id, query: raw }, (q) => r.categories.list(brand.id, q)),
          );

        expect((await list({})).page).toMatchObject({
          items: [shoes, accessories, sneakers, belts],
          total: 4,
          hasMore: false,
        });
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'parent', operator: 'eq', value: 'null' }] }] })).page.items,
        ).toStrictEqual([shoes, accessories]);
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'parent', operator: 'eq', value: String(shoes.id) }] }] }))
            .page.items,
        ).toStrictEqual([sneakers]);
        expect((await list({ sort: [{ key: 'name', direction: 'ASC' }] })).page.items).toStrictEqual([
          accessories,
          belts,
          shoes,
          sneakers,
        ]);
        expect(
          (
            await list({
              filter_groups: [{ filters: [{ key: 'name', operator: 'sw', value: 's' }] }],
              sort: [{ key: 'name', direction: 'DESC' }],
            })
          ).page.items,
        ).toStrictEqual([sneakers, shoes]);
      });
    });

    // ---- collections, subbrands, drops, cost price sets, locales --------------------------

    describe('collections, subbrands, drops, cost price sets and product locales', () => {
      it('stores, updates, finds and lists collections, allowed customers in the order saved', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const open_ = await aCollection(brand.id, { title: 'AW26 Main', createdAt: '2026-02-01T00:00:00.000Z' });
        const custom = await aCollection(brand.id, {
          title: 'VIP preview',
          active: false,
          visibility: 'customers_custom',
          allowedCustomerIds: [31, 7, 12],
        });
        await aCollection(other.id, { title: 'AW26 Main' });
        const updated: Collection = {
          ...open_,
          title: 'AW26 Main line',
          active: false,
          visibility: 'customers_custom',
          allowedCustomerIds: [5],
          updatedAt: '2026-04-04T00:00:00.000Z',
        };

        await uow().run(async (tx) => {
          await tx.collections.update(updated);
          await tx.collections.update({ ...custom, brandId: other.id, title: 'Hijacked' });
        });
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(collectionListDefinition, { brandId: brand.id, query: raw }, (q) =>
              r.collections.list(brand.id, q),
            ),
          );

        expect(byId(await uow().read((r) => r.collections.findByIds(brand.id, [custom.id, open_.id])))).toStrictEqual([
          updated,
          custom,
        ]);
        expect(await uow().read((r) => r.collections.findByIds(other.id, [custom.id]))).toStrictEqual([]);
        expect((await list({})).page).toMatchObject({ items: [updated, custom], total: 2 });
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'title', operator: 'ct', value: 'vip' }] }] })).page.items,
        ).toStrictEqual([custom]);
        expect(
          (
            await list({
              filter_groups: [
                {
                  filters: [
                    { key: 'visibility', operator: 'eq', value: 'customers_custom' },
                    { key: 'active', operator: 'eq', value: 'false' },
                  ],
                },
              ],
            })
          ).page.items,
        ).toStrictEqual([updated, custom]);
      });

      it('stores subbrands and finds them by ids within the brand', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const [one, two] = [await aSubbrand(brand.id, 'Kids'), await aSubbrand(brand.id, 'Home')];

        expect(byId(await uow().read((r) => r.subbrands.findByIds(brand.id, [two.id, one.id])))).toStrictEqual([
          one,
          two,
        ]);
        expect(await uow().read((r) => r.subbrands.findByIds(other.id, [one.id]))).toStrictEqual([]);
        expect(await uow().read((r) => r.subbrands.findByIds(brand.id, []))).toStrictEqual([]);
      });

      it('stores drops and finds them by ids and by codes, and lists them', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const ss = await aDrop(brand.id, 'SS26', { name: 'Spring/Summer 26', createdAt: '2026-01-05T00:00:00.000Z' });
        const aw = await aDrop(brand.id, 'AW26');
        const foreign = await aDrop(other.id, 'SS26');
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(dropListDefinition, { brandId: brand.id, query: raw }, (q) => r.drops.list(brand.id, q)),
          );

        expect(byId(await uow().read((r) => r.drops.findByIds(brand.id, [aw.id, ss.id, foreign.id])))).toStrictEqual([
          ss,
          aw,
        ]);
        expect(byId(await uow().read((r) => r.drops.findByCodes(brand.id, ['AW26', 'SS26', 'XX'])))).toStrictEqual([
          ss,
          aw,
        ]);
        expect(await uow().read((r) => r.drops.findByCodes(other.id, ['SS26', 'AW26']))).toStrictEqual([foreign]);
        expect(await uow().read((r) => r.drops.findByCodes(brand.id, []))).toStrictEqual([]);
        expect((await list({})).page).toMatchObject({ items: [ss, aw], total: 2 });
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'code', operator: 'eq', value: 'AW26' }] }] })).page.items,
        ).toStrictEqual([aw]);
      });

      it("lists every cost price set of the brand, in id order, and none of another brand's", async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const eur = await aCostPriceSet(brand.id, {
          label: 'Default EUR',
          currency: 'EUR',
          isDefault: true,
          createdAt: '2026-01-09T00:00:00.000Z',
        });
        const usd = await aCostPriceSet(brand.id, { label: 'Landed USD', currency: 'USD' });
        const foreign = await aCostPriceSet(other.id, { isDefault: true });

        expect(await uow().read((r) => r.costPriceSets.all(brand.id))).toStrictEqual([eur, usd]);
        expect(await uow().read((r) => r.costPriceSets.all(other.id))).toStrictEqual([foreign]);
        const empty = await aBrand('Empty');
        expect(await uow().read((r) => r.costPriceSets.all(empty.id))).toStrictEqual([]);
      });

      it('stores product locales and finds them by ids, by codes and all, within the brand', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const de = await aLocale(brand.id, 'de', 'Deutsch');
        const fr = await aLocale(brand.id, 'fr', 'Français');
        const foreign = await aLocale(other.id, 'de');

        expect(
          byId(await uow().read((r) => r.productLocales.findByIds(brand.id, [fr.id, de.id, foreign.id]))),
        ).toStrictEqual([de, fr]);
        expect(byId(await uow().read((r) => r.productLocales.findByCodes(brand.id, ['fr', 'de', 'nl'])))).toStrictEqual(
          [de, fr],
        );
        expect(await uow().read((r) => r.productLocales.findByCodes(other.id, ['de', 'fr']))).toStrictEqual([foreign]);
        expect(await uow().read((r) => r.productLocales.findByCodes(brand.id, []))).toStrictEqual([]);
        expect(await uow().read((r) => r.productLocales.all(brand.id))).toStrictEqual([de, fr]);
      });
    });

    // ---- images ---------------------------------------------------------------------------

    describe('product images', () => {
      it('saves images with their variants and finds them by product, ordered by product, sort and id', async () => {
        const brand = await aBrand();
        const first = await aProduct(brand.id, { variants: [{}, {}, {}] });
        const second = await aProduct(brand.id);
        const [v1, v2, v3] = first.variants.map((r) => r.variant.id) as [number, number, number];
        const images = await uow().run(async (tx) => {
          const made = [
            await anImage(tx, brand.id, second.product.id, { sort: 1 }),
            await anImage(tx, brand.id, first.product.id, {
              sort: 2,
              sortB2c: 1,
              alt: 'Back',
              filename: 'back.png',
              contentType: 'image/png',
              sizeBytes: 204_800,
              existanceKey: 'key-back',
              variantIds: [v3, v1],
            }),
            await anImage(tx, brand.id, first.product.id, { sort: 1, variantIds: [v2] }),
            await anImage(tx, brand.id, first.product.id, { sort: 2, createdAt: '2026-02-02T02:02:02.222Z' }),
          ];
          await tx.productImages.saveAll(made);
          return made;
        });
        const [ofSecond, back, front, sameSort] = images as [ProductImage, ProductImage, ProductImage, ProductImage];

        expect(
          await uow().read((r) => r.productImages.findByProductIds(brand.id, [second.product.id, first.product.id])),
        ).toStrictEqual([front, { ...back, variantIds: [v1, v3] }, sameSort, ofSecond]);
        expect(await uow().read((r) => r.productImages.findByProductIds(brand.id, []))).toStrictEqual([]);
      });

      it('updates images by id, variant attachments included', async () => {
        const brand = await aBrand();
        const product = await aProduct(brand.id, { variants: [{}, {}] });
        const [v1, v2] = product.variants.map((r) => r.variant.id) as [number, number];
        const image = await uow().run(async (tx) => {
          const made = await anImage(tx, brand.id, product.product.id, { variantIds: [v1] });
          await tx.productImages.saveAll([made]);
          return made;
        });
        const updated: ProductImage = {
          ...image,
          sort: 5,
          sortB2c: 2,
          alt: 'New alt',
          variantIds: [v2],
          updatedAt: '2026-05-05T00:00:00.000Z',
        };

        await uow().run((tx) => tx.productImages.saveAll([updated]));

        expect(await uow().read((r) => r.productImages.findByProductIds(brand.id, [product.product.id]))).toStrictEqual(
          [updated],
        );
      });

      it('finds images by source URL and by existance key within the brand', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const mine = await aProduct(brand.id);
        const theirs = await aProduct(other.id);
        const [a, b, foreign] = await uow().run(async (tx) => {
          const made = [
            await anImage(tx, brand.id, mine.product.id, {
              sourceUrl: 'https://img.example/a.jpg?sig=1',
              existanceKey: 'ka',
            }),
            await anImage(tx, brand.id, mine.product.id, { sourceUrl: 'https://img.example/b.jpg' }),
            await anImage(tx, other.id, theirs.product.id, {
              sourceUrl: 'https://img.example/a.jpg?sig=1',
              existanceKey: 'ka',
            }),
          ];
          await tx.productImages.saveAll(made);
          return made as [ProductImage, ProductImage, ProductImage];
        });

        expect(
          byId(
            await uow().read((r) =>
              r.productImages.findBySourceUrls(brand.id, [
                'https://img.example/b.jpg',
                'https://img.example/a.jpg?sig=1',
                'https://img.example/c.jpg',
              ]),
            ),
          ),
        ).toStrictEqual([a, b]);
        expect(
          await uow().read((r) => r.productImages.findBySourceUrls(brand.id, ['https://img.example/a.jpg?SIG=1'])),
        ).toStrictEqual([]);
        expect(await uow().read((r) => r.productImages.findByExistanceKeys(brand.id, ['ka', 'kb']))).toStrictEqual([a]);
        expect(await uow().read((r) => r.productImages.findByExistanceKeys(other.id, ['ka']))).toStrictEqual([foreign]);
        expect(await uow().read((r) => r.productImages.findBySourceUrls(brand.id, []))).toStrictEqual([]);
        expect(await uow().read((r) => r.productImages.findByExistanceKeys(brand.id, []))).toStrictEqual([]);
      });

      it("deletes the images asked for, never another brand's", async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const product = await aProduct(brand.id, { variants: [{}] });
        const [gone, kept] = await uow().run(async (tx) => {
          const made = [
            await anImage(tx, brand.id, product.product.id, { sort: 1, variantIds: [product.variants[0]!.variant.id] }),
            await anImage(tx, brand.id, product.product.id, { sort: 2 }),
          ];
          await tx.productImages.saveAll(made);
          return made as [ProductImage, ProductImage];
        });

        await uow().run(async (tx) => {
          await tx.productImages.delete(other.id, [kept.id]);
          await tx.productImages.delete(brand.id, [gone.id]);
        });

        expect(await uow().read((r) => r.productImages.findByProductIds(brand.id, [product.product.id]))).toStrictEqual(
          [kept],
        );
        expect(await uow().read((r) => r.productImages.findBySourceUrls(brand.id, [gone.sourceUrl]))).toStrictEqual([]);
      });
    });

    // ---- inventory locations --------------------------------------------------------------

    describe('inventory locations', () => {
      it('has no default location before one is made, then finds it', async () => {
        const brand = await aBrand();

        expect(await uow().read((r) => r.inventoryLocations.findDefault(brand.id))).toBeNull();
        await aLocation(brand.id, { name: 'Overflow' });
        expect(await uow().read((r) => r.inventoryLocations.findDefault(brand.id))).toBeNull();
        const main = await aLocation(brand.id, {
          name: 'Main',
          isDefault: true,
          createdAt: '2026-01-07T00:00:00.000Z',
        });

        expect(await uow().read((r) => r.inventoryLocations.findDefault(brand.id))).toStrictEqual(main);
        const other = await aBrand('Other');
        expect(await uow().read((r) => r.inventoryLocations.findDefault(other.id))).toBeNull();
      });

      it('ensureDefaultLocation makes the default location once and then reuses it', async () => {
        const brand = await aBrand();
        const clock = new FixedClock('2026-05-01T12:00:00.000Z');

        const made = await uow().run((tx) => ensureDefaultLocation(tx, clock, brand.id));
        const reused = await uow().run((tx) => ensureDefaultLocation(tx, clock, brand.id));

        expect(made).toStrictEqual({
          id: made.id,
          brandId: brand.id,
          name: DEFAULT_LOCATION_NAME,
          isDefault: true,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        });
        expect(reused).toStrictEqual(made);
      });

      it('finds locations by ids and lists them within the brand', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const main = await aLocation(brand.id, { name: 'Main', isDefault: true });
        const store = await aLocation(brand.id, { name: 'Store Copenhagen' });
        const foreign = await aLocation(other.id, { name: 'Main', isDefault: true });
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(inventoryLocationListDefinition, { brandId: brand.id, query: raw }, (q) =>
              r.inventoryLocations.list(brand.id, q),
            ),
          );

        expect(
          byId(await uow().read((r) => r.inventoryLocations.findByIds(brand.id, [store.id, main.id, foreign.id]))),
        ).toStrictEqual([main, store]);
        expect(await uow().read((r) => r.inventoryLocations.findByIds(brand.id, []))).toStrictEqual([]);
        expect((await list({})).page).toMatchObject({ items: [main, store], total: 2 });
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'is_default', operator: 'eq', value: 'false' }] }] })).page
            .items,
        ).toStrictEqual([store]);
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'name', operator: 'ct', value: 'copenhagen' }] }] })).page
            .items,
        ).toStrictEqual([store]);
      });
    });

    // ---- stock ----------------------------------------------------------------------------

    describe('concurrent writers of one product', () => {
      it(
        'never lose an update: 10 parallel read-modify-write transactions each add their own meta key',
        async () => {
          const brand = await aBrand();
          const product = await aProduct(brand.id);
          const itemNumber = product.product.itemNumber;
          await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              uow().run(async (tx) => {
                const [current] = await tx.products.findByItemNumbers(brand.id, [itemNumber]);
                const next = {
                  ...current!,
                  product: { ...current!.product, meta: { ...current!.product.meta, [`writer_${i}`]: i } },
                };
                await tx.products.saveAll(brand.id, [next]);
              }),
            ),
          );
          const [stored] = await uow().read((r) => r.products.findByItemNumbers(brand.id, [itemNumber]));
          for (let i = 0; i < 10; i++) expect(stored!.product.meta[`writer_${i}`]).toBe(i);
        },
        SLOW,
      );
    });

    describe('stock', () => {
      /** A brand with one product of `variants` variants and `locations` locations. */
      async function aStockedBrand(
        variants = 2,
        locations = 2,
      ): Promise<{ brand: Brand; variantIds: number[]; locationIds: number[] }> {
        const brand = await aBrand('Stock');
        const product = await aProduct(brand.id, { variants: Array.from({ length: variants }, () => ({})) });
        const locationIds: number[] = [];
        for (let i = 0; i < locations; i++) locationIds.push((await aLocation(brand.id, { isDefault: i === 0 })).id);
        return { brand, variantIds: product.variants.map((r) => r.variant.id), locationIds };
      }

      it('creates a balance from zero on the first movement and returns it', async () => {
        const {
          brand,
          variantIds: [variant],
          locationIds: [location],
        } = await aStockedBrand(1, 1);
        const at = '2026-02-01T08:00:00.000Z';

        const returned = await uow().run((tx) =>
          tx.stock.apply(brand.id, [aMovement(brand.id, variant!, location!, 7, 2)], at),
        );

        expect(returned).toStrictEqual([
          {
            id: returned[0]!.id,
            brandId: brand.id,
            variantId: variant!,
            locationId: location!,
            inStock: 7,
            reserved: 2,
            updatedAt: at,
          },
        ]);
        expect(await uow().read((r) => r.stock.balances(brand.id, [variant!]))).toStrictEqual(returned);
      });

      it('adds deltas to an existing balance, in stock and reserved independently, keeping its id', async () => {
        const {
          brand,
          variantIds: [variant],
          locationIds: [location],
        } = await aStockedBrand(1, 1);
        const [created] = await uow().run((tx) =>
          tx.stock.apply(brand.id, [aMovement(brand.id, variant!, location!, 10)], T0),
        );

        const [reserved] = await uow().run((tx) =>
          tx.stock.apply(
            brand.id,
            [aMovement(brand.id, variant!, location!, 0, 4, { reason: 'order_reserved' })],
            '2026-01-02T00:00:00.000Z',
          ),
        );
        const [regulated] = await uow().run((tx) =>
          tx.stock.apply(
            brand.id,
            [aMovement(brand.id, variant!, location!, -3, -3, { reason: 'order_regulated' })],
            '2026-01-03T00:00:00.000Z',
          ),
        );

        expect(reserved).toStrictEqual({ ...created, inStock: 10, reserved: 4, updatedAt: '2026-01-02T00:00:00.000Z' });
        expect(regulated).toStrictEqual({ ...created, inStock: 7, reserved: 1, updatedAt: '2026-01-03T00:00:00.000Z' });
        expect(await uow().read((r) => r.stock.balances(brand.id, [variant!]))).toStrictEqual([regulated]);
      });

      it('moves several variants and locations in one call, one balance per variant and location, in the order first touched', async () => {
        const {
          brand,
          variantIds: [v1, v2],
          locationIds: [l1, l2],
        } = await aStockedBrand(2, 2);

        const returned = await uow().run((tx) =>
          tx.stock.apply(
            brand.id,
            [
              aMovement(brand.id, v2!, l2!, 5),
              aMovement(brand.id, v1!, l1!, 3),
              aMovement(brand.id, v2!, l2!, -1),
              aMovement(brand.id, v2!, l1!, 2, 1),
            ],
            T0,
          ),
        );

        expect(returned.map((b) => [b.variantId, b.locationId, b.inStock, b.reserved])).toEqual([
          [v2, l2, 4, 0],
          [v1, l1, 3, 0],
          [v2, l1, 2, 1],
        ]);
        expect(new Set(returned.map((b) => b.id)).size).toBe(3);
        expect(await uow().read((r) => r.stock.balances(brand.id, [v2!, v1!]))).toStrictEqual(
          [...returned].sort((a, b) => a.variantId - b.variantId || a.locationId - b.locationId),
        );
      });

      it('returns no balances for no movements', async () => {
        const { brand } = await aStockedBrand(1, 1);

        expect(await uow().run((tx) => tx.stock.apply(brand.id, [], T0))).toStrictEqual([]);
      });

      it('applies with the variants: the same balances as apply, each with its SKU and EAN, as the available list shows them', async () => {
        const brand = await aBrand('Stock with variants');
        const product = await aProduct(brand.id, {
          variants: [
            { sku: 'APPLIED-S', ean: '4000000000017' },
            { sku: 'APPLIED-M', ean: null },
          ],
        });
        const [s, m] = product.variants.map((r) => r.variant) as [Variant, Variant];
        const l1 = (await aLocation(brand.id, { isDefault: true })).id;
        const l2 = (await aLocation(brand.id)).id;
        const [existing] = await uow().run((tx) => tx.stock.apply(brand.id, [aMovement(brand.id, m.id, l1, 6)], T0));
        const at = '2026-02-01T08:00:00.000Z';

        const returned = await uow().run((tx) =>
          tx.stock.applyWithVariants(
            brand.id,
            [
              aMovement(brand.id, m.id, l1, -1, 2),
              aMovement(brand.id, s.id, l2, 5),
              aMovement(brand.id, m.id, l1, 0, 1),
            ],
            at,
          ),
        );

        const balances = await uow().read((r) => r.stock.balances(brand.id, [s.id, m.id]));
        const balanceOf = (variantId: number) => balances.find((b) => b.variantId === variantId)!;
        expect(returned).toStrictEqual([
          { ...balanceOf(m.id), sku: 'APPLIED-M', ean: null },
          { ...balanceOf(s.id), sku: 'APPLIED-S', ean: '4000000000017' },
        ]);
        expect(returned[0]).toMatchObject({ id: existing!.id, inStock: 5, reserved: 3, updatedAt: at });
        const { page } = await uow().read((r) =>
          runList(availableStockListDefinition, { brandId: brand.id, query: { limit: '10' } }, (q) =>
            r.stock.listAvailable(brand.id, q),
          ),
        );
        expect(page.items).toStrictEqual(
          [...returned]
            .sort((a, b) => a.id - b.id)
            .map((b) => ({
              id: b.id,
              variantId: b.variantId,
              sku: b.sku,
              ean: b.ean,
              locationId: b.locationId,
              inStock: b.inStock,
              available: b.inStock - b.reserved,
              updatedAt: b.updatedAt,
            })),
        );
        expect(await uow().run((tx) => tx.stock.applyWithVariants(brand.id, [], at))).toStrictEqual([]);
      });

      it('gives balances of the variants asked for at every location, or only at the one asked for', async () => {
        const {
          brand,
          variantIds: [v1, v2, v3],
          locationIds: [l1, l2],
        } = await aStockedBrand(3, 2);
        await uow().run((tx) =>
          tx.stock.apply(
            brand.id,
            [
              aMovement(brand.id, v1!, l1!, 1),
              aMovement(brand.id, v1!, l2!, 2),
              aMovement(brand.id, v2!, l2!, 3),
              aMovement(brand.id, v3!, l1!, 4),
            ],
            T0,
          ),
        );
        const summary = (balances: StockBalance[]) => balances.map((b) => [b.variantId, b.locationId, b.inStock]);

        expect(summary(await uow().read((r) => r.stock.balances(brand.id, [v2!, v1!])))).toEqual([
          [v1, l1, 1],
          [v1, l2, 2],
          [v2, l2, 3],
        ]);
        expect(summary(await uow().read((r) => r.stock.balances(brand.id, [v1!, v2!, v3!], l1)))).toEqual([
          [v1, l1, 1],
          [v3, l1, 4],
        ]);
        expect(await uow().read((r) => r.stock.balances(brand.id, []))).toStrictEqual([]);
        const other = await aBrand('Other');
        expect(await uow().read((r) => r.stock.balances(other.id, [v1!]))).toStrictEqual([]);
      });

      it('records every movement in the ledger, newest first, with reason, note, document and user', async () => {
        const {
          brand,
          variantIds: [variant, sibling],
          locationIds: [l1, l2],
        } = await aStockedBrand(2, 2);
        const user = await aUser(brand.id);
        const first = aMovement(brand.id, variant!, l1!, 10, 0, { reason: 'sync_quantity', note: 'Initial count' });
        const second = aMovement(brand.id, variant!, l2!, 0, 2, {
          reason: 'order_reserved',
          documentType: 'order',
          documentId: 1001,
          userId: user.id,
        });
        const third = aMovement(brand.id, variant!, l1!, -1, 0, {
          reason: 'sync_adjustment',
          note: 'Damaged — written off',
        });
        await uow().run((tx) =>
          tx.stock.apply(brand.id, [first, aMovement(brand.id, sibling!, l1!, 4)], '2026-03-01T10:00:00.000Z'),
        );
        await uow().run((tx) => tx.stock.apply(brand.id, [second], '2026-03-01T10:00:01.000Z'));
        await uow().run((tx) => tx.stock.apply(brand.id, [third], '2026-03-01T10:00:02.000Z'));

        const ledger = await uow().read((r) => r.stock.movements(brand.id, variant!, 10));

        const expected: StockMovement[] = [
          { ...third, id: expect.any(Number) as number, createdAt: '2026-03-01T10:00:02.000Z' },
          { ...second, id: expect.any(Number) as number, createdAt: '2026-03-01T10:00:01.000Z' },
          { ...first, id: expect.any(Number) as number, createdAt: '2026-03-01T10:00:00.000Z' },
        ];
        expect(ledger).toStrictEqual(expected);
        expect(new Set(ledger.map((m) => m.id)).size).toBe(3);
        expect(await uow().read((r) => r.stock.movements(brand.id, variant!, 2))).toStrictEqual(ledger.slice(0, 2));
        const other = await aBrand('Other');
        expect(await uow().read((r) => r.stock.movements(other.id, variant!, 10))).toStrictEqual([]);
      });

      it(
        '20 parallel transactions each adding 1 to the same balance end at exactly 20 more, with 20 ledger rows',
        async () => {
          const {
            brand,
            variantIds: [variant],
            locationIds: [location],
          } = await aStockedBrand(1, 1);
          const [before] = await uow().run((tx) =>
            tx.stock.apply(brand.id, [aMovement(brand.id, variant!, location!, 5)], T0),
          );

          await Promise.all(
            Array.from({ length: 20 }, () =>
              uow().run((tx) => tx.stock.apply(brand.id, [aMovement(brand.id, variant!, location!, 1, 1)], T0)),
            ),
          );

          expect(await uow().read((r) => r.stock.balances(brand.id, [variant!]))).toStrictEqual([
            { ...before, inStock: 25, reserved: 20 },
          ]);
          expect(await uow().read((r) => r.stock.movements(brand.id, variant!, 100))).toHaveLength(21);
        },
        SLOW,
      );

      it(
        '20 parallel transactions adding 1 where no balance exists yet end with one balance of exactly 20',
        async () => {
          const {
            brand,
            variantIds: [variant],
            locationIds: [location],
          } = await aStockedBrand(1, 1);

          await Promise.all(
            Array.from({ length: 20 }, () =>
              uow().run((tx) => tx.stock.apply(brand.id, [aMovement(brand.id, variant!, location!, 1)], T0)),
            ),
          );

          const balances = await uow().read((r) => r.stock.balances(brand.id, [variant!]));
          expect(balances).toHaveLength(1);
          expect(balances[0]).toMatchObject({ inStock: 20, reserved: 0 });
          expect(await uow().read((r) => r.stock.movements(brand.id, variant!, 100))).toHaveLength(20);
        },
        SLOW,
      );

      it('leaves the balance and the ledger as they were when the transaction applying a movement fails', async () => {
        const {
          brand,
          variantIds: [variant, fresh],
          locationIds: [location],
        } = await aStockedBrand(2, 1);
        await uow().run((tx) => tx.stock.apply(brand.id, [aMovement(brand.id, variant!, location!, 8)], T0));
        const balancesBefore = await uow().read((r) => r.stock.balances(brand.id, [variant!, fresh!]));
        const ledgerBefore = await uow().read((r) => r.stock.movements(brand.id, variant!, 10));

        await expect(
          uow().run(async (tx) => {
            await tx.stock.apply(
              brand.id,
              [aMovement(brand.id, variant!, location!, -5), aMovement(brand.id, fresh!, location!, 3)],
              '2026-04-01T00:00:00.000Z',
            );
            throw new PlannedFailure('after applying stock');
          }),
        ).rejects.toThrow(PlannedFailure);

        expect(await uow().read((r) => r.stock.balances(brand.id, [variant!, fresh!]))).toStrictEqual(balancesBefore);
        expect(await uow().read((r) => r.stock.movements(brand.id, variant!, 10))).toStrictEqual(ledgerBefore);
        expect(await uow().read((r) => r.stock.movements(brand.id, fresh!, 10))).toStrictEqual([]);
      });
    });

    // ---- inventory available --------------------------------------------------------------

    describe('listing available stock', () => {
      let brandId = 0;
      let rows: AvailableStock[] = [];

      beforeAll(async () => {
        const brand = await aBrand('Available');
        brandId = brand.id;
        const neighbour = await aBrand('Neighbour');
        const theirs = await aProduct(neighbour.id, { variants: [{ sku: 'AV-TEE-S' }] });
        const theirLocation = await aLocation(neighbour.id, { isDefault: true });
        await uow().run((tx) =>
          tx.stock.apply(
            neighbour.id,
            [aMovement(neighbour.id, theirs.variants[0]!.variant.id, theirLocation.id, 9)],
            T0,
          ),
        );

        const tee = await aProduct(brandId, {
          variants: [
            { sku: 'AV-TEE-S', ean: '5700000000011' },
            { sku: 'AV-TEE-M', ean: '5700000000028' },
            { sku: 'AV-TEE-L', ean: null },
          ],
        });
        const cap = await aProduct(brandId, {
          variants: [
            { sku: 'AV-CAP', ean: '5700000000035' },
            { sku: 'AV-CAP-KIDS', ean: null },
          ],
        });
        const [main, store] = [await aLocation(brandId, { isDefault: true }), await aLocation(brandId)];
        const [s, m, l] = tee.variants.map((r) => r.variant.id) as [number, number, number];
        const [capId, kidsId] = cap.variants.map((r) => r.variant.id) as [number, number];
        // Four transactions at four instants, so balances are created in a known order with distinct updated_at.
        await uow().run((tx) =>
          tx.stock.apply(
            brandId,
            [aMovement(brandId, m, main.id, 10, 3), aMovement(brandId, s, main.id, 4)],
            '2026-05-01T00:00:00.000Z',
          ),
        );
        await uow().run((tx) =>
          tx.stock.apply(
            brandId,
            [aMovement(brandId, s, store.id, 2, 2), aMovement(brandId, l, main.id, 0)],
            '2026-05-02T00:00:00.000Z',
          ),
        );
        await uow().run((tx) =>
          tx.stock.apply(
            brandId,
            [aMovement(brandId, capId, store.id, 6, 1), aMovement(brandId, kidsId, main.id, 1, 3)],
            '2026-05-03T00:00:00.000Z',
          ),
        );
        await uow().run((tx) =>
          tx.stock.apply(
            brandId,
            [aMovement(brandId, m, store.id, 5), aMovement(brandId, capId, main.id, 12, 0)],
            '2026-05-04T00:00:00.000Z',
          ),
        );
        await uow().run((tx) =>
          tx.stock.apply(brandId, [aMovement(brandId, s, main.id, -1, 0)], '2026-05-05T00:00:00.000Z'),
        );

        const variants = new Map([...tee.variants, ...cap.variants].map((r) => [r.variant.id, r.variant]));
        const balances = await uow().read((r) => r.stock.balances(brandId, [...variants.keys()]));
        rows = byId(balances).map((b) => ({
          id: b.id,
          variantId: b.variantId,
          sku: variants.get(b.variantId)!.sku,
          ean: variants.get(b.variantId)!.ean,
          locationId: b.locationId,
          inStock: b.inStock,
          available: b.inStock - b.reserved,
          updatedAt: b.updatedAt,
        }));
      }, SLOW);

      const list = (raw: RawListQuery, cursor?: DecodedCursor) =>
        uow().read((r) =>
          runList(availableStockListDefinition, { brandId, query: raw, cursor }, (q) =>
            r.stock.listAvailable(brandId, q),
          ),
        );
      const filter = (key: string, operator: string, value: unknown, not = false) => ({
        filter_groups: [{ filters: [{ key, operator, value, not }] }],
      });

      it('lists one row per variant and location with SKU, EAN, in stock and available, in balance order, never with a total', async () => {
        const { page } = await list({ limit: 100 });

        expect(rows).toHaveLength(8);
        expect(page).toStrictEqual({ items: rows, hasMore: false, total: null, next: null });
        expect(rows.find((r) => r.sku === 'AV-CAP-KIDS')).toMatchObject({ inStock: 1, available: -2 });
        expect(rows.find((r) => r.sku === 'AV-TEE-S' && r.updatedAt === '2026-05-05T00:00:00.000Z')).toMatchObject({
          inStock: 3,
          available: 3,
        });
      });

      it('a keyset walk visits every row once, in order, without a total', async () => {
        const pages = await walkByCursor(availableStockListDefinition, list, { limit: 3 });

        expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
        expect(pages.flat()).toStrictEqual(rows);
        const descending = await walkByCursor(availableStockListDefinition, list, {
          limit: 5,
          sort: [{ key: 'id', direction: 'DESC' }],
        });
        expect(descending.flat()).toStrictEqual([...rows].reverse());
      });

      it('starting_after lists the rows after a balance id', async () => {
        const { page } = await list({ limit: 100, starting_after: String(rows[4]!.id) });

        expect(page.items).toStrictEqual(rows.slice(5));
        expect(page.total).toBeNull();
      });

      it('filters on SKU, EAN, location, in stock, available and updated_at', async () => {
        const expectMatches = async (raw: RawListQuery, expected: (r: AvailableStock) => boolean) =>
          expect((await list({ limit: 100, ...raw })).page.items).toStrictEqual(rows.filter(expected));

        await expectMatches(filter('sku', 'sw', 'av-tee'), (r) => r.sku.startsWith('AV-TEE'));
        await expectMatches(filter('sku', 'eq', 'AV-CAP'), (r) => r.sku === 'AV-CAP');
        await expectMatches(filter('ean', 'eq', null), (r) => r.ean === null);
        await expectMatches(filter('available', 'gt', 0), (r) => r.available > 0);
        await expectMatches(filter('available', 'lte', 0), (r) => r.available <= 0);
        await expectMatches(filter('in_stock', 'bt', [2, 6]), (r) => r.inStock >= 2 && r.inStock <= 6);
        await expectMatches(
          filter('inventory_location_id', 'eq', rows[0]!.locationId),
          (r) => r.locationId === rows[0]!.locationId,
        );
        await expectMatches(
          filter('variant_id', 'in', [rows[0]!.variantId, rows[2]!.variantId]),
          (r) => r.variantId === rows[0]!.variantId || r.variantId === rows[2]!.variantId,
        );
        await expectMatches(
          filter('updated_at', 'gte', '2026-05-04'),
          (r) => r.updatedAt >= '2026-05-04T00:00:00.000Z',
        );
      });

      it('refuses page: the list is cursor-only', async () => {
        await expect(list({ page: 1 })).rejects.toMatchObject({ code: 'invalid_list_query' });
      });

      it('lists nothing for a brand without stock', async () => {
        const empty = await aBrand('No stock');

        const { page } = await uow().read((r) =>
          runList(availableStockListDefinition, { brandId: empty.id, query: {} }, (q) =>
            r.stock.listAvailable(empty.id, q),
          ),
        );

        expect(page).toStrictEqual({ items: [], hasMore: false, total: null, next: null });
      });
    });

    // ---- product and variant lists --------------------------------------------------------

    describe('listing products and variants', () => {
      let brandId = 0;
      let fixtures: ProductAggregate[] = [];
      let collectionId = 0;

      const specs: Array<{
        itemNumber: string;
        name: string;
        active: boolean;
        noos: boolean;
        noInventory: boolean;
        collection: boolean;
        releaseDate: string | null;
        variants: number;
      }> = [
        {
          itemNumber: 'LP-07',
          name: 'Wool Coat',
          active: true,
          noos: false,
          noInventory: false,
          collection: true,
          releaseDate: '2026-08-01',
          variants: 2,
        },
        {
          itemNumber: 'LP-02',
          name: 'Linen Shirt',
          active: true,
          noos: true,
          noInventory: false,
          collection: false,
          releaseDate: null,
          variants: 3,
        },
        {
          itemNumber: 'LP-05',
          name: 'Gift Card',
          active: true,
          noos: false,
          noInventory: true,
          collection: false,
          releaseDate: null,
          variants: 1,
        },
        {
          itemNumber: 'LP-01',
          name: 'Rain coat',
          active: false,
          noos: false,
          noInventory: false,
          collection: true,
          releaseDate: '2026-02-01',
          variants: 2,
        },
        {
          itemNumber: 'LP-09',
          name: 'Silk Scarf',
          active: true,
          noos: true,
          noInventory: false,
          collection: true,
          releaseDate: null,
          variants: 1,
        },
        {
          itemNumber: 'LP-03',
          name: 'Denim Jacket',
          active: false,
          noos: false,
          noInventory: false,
          collection: false,
          releaseDate: '2026-05-15',
          variants: 4,
        },
        {
          itemNumber: 'LP-08',
          name: 'Cotton Tee',
          active: true,
          noos: true,
          noInventory: false,
          collection: false,
          releaseDate: null,
          variants: 2,
        },
      ];
      const day = (i: number) => `2025-03-${String(i + 1).padStart(2, '0')}T09:30:00.000Z`;

      beforeAll(async () => {
        const brand = await aBrand('Product list');
        brandId = brand.id;
        const neighbour = await aBrand('Neighbour');
        await aProduct(neighbour.id, { itemNumber: 'LP-07', name: 'Wool Coat' });
        collectionId = (await aCollection(brandId)).id;
        const supplier = await aSupplier(brandId);
        const locale = await aLocale(brandId, 'de');
        const set = await aCostPriceSet(brandId, { isDefault: true });
        fixtures = await uow().run(async (tx) => {
          const aggregates: ProductAggregate[] = [];
          for (const [i, spec] of specs.entries()) {
            aggregates.push(
              await draftProduct(tx, brandId, {
                itemNumber: spec.itemNumber,
                name: spec.name,
                active: spec.active,
                noos: spec.noos,
                noInventory: spec.noInventory,
                collectionId: spec.collection ? collectionId : null,
                releaseDate: spec.releaseDate,
                createdAt: day(i),
                updatedAt: day(i),
                suppliers:
                  i % 3 === 0
                    ? [
                        {
                          supplierId: supplier.id,
                          primary: true,
                          leadTimeType: 'weeks',
                          leadTimeFrom: 1,
                          leadTimeTo: 2,
                          costPriceSetId: set.id,
                        },
                      ]
                    : [],
                translations:
                  i % 2 === 0
                    ? [
                        {
                          localeId: locale.id,
                          name: `${spec.name} (de)`,
                          description: null,
                          metaTitle: null,
                          metaDescription: null,
                        },
                      ]
                    : [],
                variants: Array.from({ length: spec.variants }, (_, v) => ({
                  sku: `${spec.itemNumber}-${v + 1}`,
                  ean: v === 0 ? `59${String(i).padStart(11, '0')}` : null,
                  archived: v === 1,
                  prices: [
                    { currency: 'EUR', salesPrice: 100 * (i + 1) + v },
                    { currency: 'USD', salesPrice: 120 * (i + 1) + v },
                  ],
                  costPrices: [{ costPriceSetId: set.id, costPrice: 40 + v }],
                  createdAt: day(i),
                  updatedAt: day(i),
                })),
              }),
            );
          }
          // One call, as a sync saves a batch.
          await tx.products.saveAll(brandId, aggregates);
          return aggregates.map(canonicalAggregate);
        });
      }, SLOW);

      const listWith =
        <T>(definition: ListDefinition<T>, fetch: (r: Repositories, q: ListQuery) => Promise<ListRows<T>>) =>
        (raw: RawListQuery, cursor?: DecodedCursor) =>
          uow().read((r) => runList(definition, { brandId, query: raw, cursor }, (q) => fetch(r, q)));
      const list = listWith(productListDefinition, (r, q) => r.products.list(brandId, q));
      const legacyList = listWith(legacyProductListDefinition, (r, q) => r.products.list(brandId, q));
      const variantList = listWith(variantListDefinition, (r, q) => r.products.listVariants(brandId, q));
      const filter = (key: string, operator: string, value: unknown, not = false) => ({
        filter_groups: [{ filters: [{ key, operator, value, not }] }],
      });
      const withoutVariants = (a: ProductAggregate): ProductAggregate => ({ ...a, variants: [] });
      const allVariants = (): VariantRef[] =>
        fixtures.flatMap((a) => a.variants.map((r) => ref(r, a.product.itemNumber)));

      it('without includes lists every product of the brand in id order, with the total, suppliers and translations, and no variants', async () => {
        const { page } = await list({ limit: 100 });

        expect(page.items).toStrictEqual(fixtures.map(withoutVariants));
        expect(page).toMatchObject({ total: fixtures.length, hasMore: false, next: null });
      });

      for (const include of ['variants', 'variants.prices', 'variants.cost_prices', 'variants.inventory']) {
        it(`with includes[]=${include} lists the products with their whole variant records`, async () => {
          const { page } = await list({ limit: 100, includes: [include] });

          expect(page.items).toStrictEqual(fixtures);
        });
      }

      it('filters on the product fields', async () => {
        const expectMatches = async (raw: RawListQuery, expected: (a: ProductAggregate) => boolean) => {
          const { page } = await list({ limit: 100, ...raw });
          const want = fixtures.filter(expected).map((a) => a.product.itemNumber);
          expect(page.items.map((a) => a.product.itemNumber)).toEqual(want);
          expect(page.total).toBe(want.length);
        };

        await expectMatches(filter('active', 'eq', false), (a) => !a.product.active);
        await expectMatches(filter('noos', 'eq', true), (a) => a.product.noos);
        await expectMatches(filter('no_inventory', 'eq', true), (a) => a.product.noInventory);
        await expectMatches(filter('name', 'ct', 'COAT'), (a) => a.product.name.toLowerCase().includes('coat'));
        await expectMatches(filter('item_number', 'in', ['LP-01', 'LP-09', 'LP-99']), (a) =>
          ['LP-01', 'LP-09'].includes(a.product.itemNumber),
        );
        await expectMatches(
          filter('collection_id', 'eq', collectionId),
          (a) => a.product.collectionId === collectionId,
        );
        await expectMatches(filter('release_date', 'eq', null), (a) => a.product.releaseDate === null);
        await expectMatches(
          filter('release_date', 'gte', '2026-05-01'),
          (a) => a.product.releaseDate !== null && a.product.releaseDate >= '2026-05-01',
        );
        await expectMatches(filter('updated_at', 'lt', day(3)), (a) => a.product.updatedAt < day(3));
      });

      it('a keyset walk with variants included visits every product once, like the offset walk', async () => {
        const raw = { limit: 3, includes: ['variants'], sort: [{ key: 'id', direction: 'DESC' }] };

        const cursorWalk = await walkByCursor(productListDefinition, list, raw);
        const offsetWalk = await walkByOffset(list, raw);

        expect(cursorWalk.flat()).toStrictEqual([...fixtures].reverse());
        expect(offsetWalk).toStrictEqual(cursorWalk);
      });

      it('on the older interface sorts by item number and pages by keyset, variants on every page', async () => {
        const raw = { limit: 2, includes: ['variants'], sort: [{ key: 'item_number', direction: 'ASC' }] };

        const pages = await walkByCursor(legacyProductListDefinition, legacyList, raw);

        expect(pages.flat()).toStrictEqual(
          [...fixtures].sort((a, b) => text(a.product.itemNumber, b.product.itemNumber)),
        );
        expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
      });

      it('lists every variant of the brand in id order with its item number and the total', async () => {
        const { page } = await variantList({ limit: 100 });

        expect(page.items).toStrictEqual(byVariantId(allVariants()));
        expect(page.total).toBe(allVariants().length);
      });

      it('filters variants on SKU, EAN, product, item number and archived', async () => {
        const expectMatches = async (raw: RawListQuery, expected: (v: VariantRef) => boolean) => {
          const { page } = await variantList({ limit: 100, ...raw });
          expect(page.items).toStrictEqual(byVariantId(allVariants()).filter(expected));
        };
        const denim = fixtures.find((a) => a.product.itemNumber === 'LP-03')!;

        await expectMatches(filter('sku', 'sw', 'lp-0'), () => true);
        await expectMatches(filter('sku', 'ew', '-2'), (v) => v.variant.sku.endsWith('-2'));
        await expectMatches(filter('ean', 'eq', null, true), (v) => v.variant.ean !== null);
        await expectMatches(
          filter('product_id', 'eq', denim.product.id),
          (v) => v.variant.productId === denim.product.id,
        );
        await expectMatches(filter('item_number', 'eq', 'LP-02'), (v) => v.itemNumber === 'LP-02');
        await expectMatches(filter('archived', 'eq', true), (v) => v.variant.archived);
      });

      it('a keyset walk over variants visits every variant once, like the offset walk', async () => {
        const raw = { limit: 4, ...filter('archived', 'eq', false) };

        const cursorWalk = await walkByCursor(variantListDefinition, variantList, raw);
        const offsetWalk = await walkByOffset(variantList, raw);

        expect(cursorWalk.flat()).toStrictEqual(byVariantId(allVariants()).filter((v) => !v.variant.archived));
        expect(offsetWalk).toStrictEqual(cursorWalk);
      });

      it('lists nothing of this brand for another brand', async () => {
        const other = await aBrand('Empty');
        const empty: ListQuery = {
          filterGroups: [],
          sort: [{ key: 'id', direction: 'ASC' }],
          includes: ['variants'],
          limit: 100,
          page: 0,
          after: null,
          withTotal: true,
        };

        const seen = await uow().read(async (r) => ({
          products: await r.products.list(other.id, empty),
          variants: await r.products.listVariants(other.id, { ...empty, includes: [] }),
          categories: await r.categories.list(other.id, { ...empty, includes: [] }),
          collections: await r.collections.list(other.id, { ...empty, includes: [] }),
          drops: await r.drops.list(other.id, { ...empty, includes: [] }),
          locations: await r.inventoryLocations.list(other.id, { ...empty, includes: [] }),
          available: await r.stock.listAvailable(other.id, { ...empty, includes: [], withTotal: false }),
        }));

        expect(seen).toStrictEqual({
          products: { rows: [], total: 0 },
          variants: { rows: [], total: 0 },
          categories: { rows: [], total: 0 },
          collections: { rows: [], total: 0 },
          drops: { rows: [], total: 0 },
          locations: { rows: [], total: 0 },
          available: { rows: [], total: null },
        });
      });
    });

    // ---- write races ----------------------------------------------------------------------

    describe('write races', () => {
      it(
        'parallel transactions saving different products of one brand all succeed',
        async () => {
          const brand = await aBrand();

          const saved = await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              uow().run(async (tx) => {
                const aggregate = await draftProduct(tx, brand.id, {
                  itemNumber: `RACE-${i}`,
                  variants: [{ sku: `RACE-${i}-A` }, { sku: `RACE-${i}-B` }],
                });
                await tx.products.saveAll(brand.id, [aggregate]);
                return canonicalAggregate(aggregate);
              }),
            ),
          );

          expect(
            byProductId(
              await byItemNumbers(
                brand.id,
                saved.map((a) => a.product.itemNumber),
              ),
            ),
          ).toStrictEqual(byProductId(saved));
        },
        SLOW,
      );

      it(
        'a failing transaction among parallel stock applies leaves exactly the successful ones',
        async () => {
          const brand = await aBrand();
          const product = await aProduct(brand.id);
          const location = await aLocation(brand.id, { isDefault: true });
          const variantId = product.variants[0]!.variant.id;

          const results = await Promise.allSettled(
            Array.from({ length: 12 }, (_, i) =>
              uow().run(async (tx) => {
                await tx.stock.apply(brand.id, [aMovement(brand.id, variantId, location.id, 1)], T0);
                if (i % 3 === 0) throw new PlannedFailure(`apply ${i}`);
              }),
            ),
          );

          const failed = results.filter((r) => r.status === 'rejected');
          expect(failed).toHaveLength(4);
          expect(failed.every((r) => r.status === 'rejected' && !isDomainError(r.reason))).toBe(true);
          expect((await uow().read((r) => r.stock.balances(brand.id, [variantId])))[0]).toMatchObject({ inStock: 8 });
          expect(await uow().read((r) => r.stock.movements(brand.id, variantId, 100))).toHaveLength(8);
        },
        SLOW,
      );
    });
  });
}
