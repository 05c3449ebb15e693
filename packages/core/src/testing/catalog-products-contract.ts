import { ProductAggregate, ProductSupplierLink, VariantRecord } from '../catalog/catalog.entities';
import { byProductId, canonicalAggregate, catalogBuilders, draftProduct } from './catalog-contract-builders';
import { contractBuilders } from './contract-builders';
import { ContractStorage, PlannedFailure, SLOW, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of saving product aggregates (a product with its variants, prices, cost prices,
 * supplier links and translations): what is saved is read back exactly, a second save makes each
 * child collection the new one, and a failed transaction leaves nothing.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeCatalogProductsContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogProductsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aSupplier } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aCostPriceSet, aLocale, aDrop, aCategory, aCollection, aSubbrand, aProduct, byItemNumbers, oneProduct } =
      catalogBuilders(uow);

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
  });
}
