import { isDomainError } from '../shared/errors';
import { aMovement, byProductId, canonicalAggregate, catalogBuilders, draftProduct } from './catalog-contract-builders';
import { contractBuilders } from './contract-builders';
import { ContractStorage, PlannedFailure, SLOW, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of parallel writers in the catalog: no read-modify-write of a product loses an
 * update, parallel saves of different products all succeed, and a failing transaction among
 * parallel stock movements leaves exactly the successful ones.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeCatalogWriteRacesContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogWriteRacesContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aLocation } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aProduct, byItemNumbers } = catalogBuilders(uow);

    // ---- write races ----------------------------------------------------------------------
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
