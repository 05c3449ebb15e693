import { VariantRecord } from '../catalog/catalog.entities';
import { aMovement, anImage, catalogBuilders, ProductSpec } from './catalog-contract-builders';
import { contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of deleting products and variants with everything hanging off them (never another
 * brand's), and of the dependents the repositories report for them.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeCatalogProductRemovalContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogProductRemovalContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aSupplier, aLocation } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aCostPriceSet, aLocale, aDrop, aCategory, aProduct, byItemNumbers, oneProduct } = catalogBuilders(uow);

    // ---- products -------------------------------------------------------------------------

    describe('products', () => {
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
    });
  });
}
