import { ProductImage } from '../catalog/catalog.entities';
import { anImage, catalogBuilders } from './catalog-contract-builders';
import { byId, contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of product images: saved and updated with the variants they show, found by product,
 * source URL and existence key, deleted within the brand.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeCatalogImagesContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogImagesContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aProduct } = catalogBuilders(uow);

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
  });
}
