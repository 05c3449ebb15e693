import { ProductAggregate } from '../catalog/catalog.entities';
import {
  legacyProductListDefinition,
  productListDefinition,
  variantListDefinition,
} from '../catalog/catalog.list-definitions';
import { VariantRef } from '../catalog/catalog.ports';
import { ListDefinition, ListQuery, ListRows, RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DecodedCursor } from '../listing/validate-list-query';
import { Repositories } from '../shared/unit-of-work.ports';
import {
  byVariantId,
  canonicalAggregate,
  catalogBuilders,
  compareText,
  draftProduct,
  ref,
} from './catalog-contract-builders';
import { contractBuilders } from './contract-builders';
import { ContractStorage, SLOW, useContractStorage, walkByCursor, walkByOffset } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The list semantics of the product and variant lists.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeCatalogListsContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogListsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aSupplier } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aCostPriceSet, aLocale, aCollection, aProduct } = catalogBuilders(uow);

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
          [...fixtures].sort((a, b) => compareText(a.product.itemNumber, b.product.itemNumber)),
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
  });
}
