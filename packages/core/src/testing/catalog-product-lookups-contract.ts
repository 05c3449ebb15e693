import { VariantRecord } from '../catalog/catalog.entities';
import { byProductId, byVariantId, catalogBuilders, ref } from './catalog-contract-builders';
import { contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of finding products and variants: by item number, id, category, SKU and EAN, with
 * their prices and terms, never another brand's.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeCatalogProductLookupsContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogProductLookupsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aCategory, aProduct, byItemNumbers } = catalogBuilders(uow);

    // ---- products -------------------------------------------------------------------------

    describe('products', () => {
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
    });
  });
}
