import {
  CostPriceSet,
  ensureDefaultLocation,
  FixedClock,
  isDomainError,
  ListQuery,
  productListDefinition,
  RawListQuery,
  runList,
  UnitOfWork,
  variantListDefinition,
} from '@brand/core';
import { LogEvent } from 'kysely';
import { Storage } from '../src';
import { openTestStorage, testDialects } from '../src/testing';
import { catalogBuilders, draftProducts, T0 } from './catalog-fixtures';

/** Parallel transactions wait on Postgres row locks and retries. */
const SLOW = 30_000;

// What the shared catalog contract cannot see: how many statements the adapter spends, the
// constraints the schema enforces on its own, and locking under concurrency.
for (const dialect of testDialects()) {
  describe(`Kysely catalog storage [${dialect}]`, () => {
    let storage: (Storage & { url: string }) | undefined;
    /** SQL of the statements run while `counting` is on. */
    let statements: string[] = [];
    let counting = false;
    const uow = (): UnitOfWork => storage!.uow;
    const { aBrand, aSupplier, aCategory, aLocation } = catalogBuilders(uow);

    beforeAll(async () => {
      storage = await openTestStorage(dialect, {
        log: (event: LogEvent) => {
          if (counting && event.level === 'query') statements.push(event.query.sql);
        },
      });
    }, SLOW);

    afterAll(async () => {
      await storage?.close();
    }, SLOW);

    /** Runs `work` and returns the SQL statements it executed. */
    async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
      statements = [];
      counting = true;
      try {
        await work();
      } finally {
        counting = false;
      }
      return statements;
    }

    const listProducts = (brandId: number, raw: RawListQuery) =>
      uow().read((r) =>
        runList(productListDefinition, { brandId, query: raw }, (q: ListQuery) => r.products.list(brandId, q)),
      );
    const listVariants = (brandId: number, raw: RawListQuery) =>
      uow().read((r) =>
        runList(variantListDefinition, { brandId, query: raw }, (q: ListQuery) => r.products.listVariants(brandId, q)),
      );

    describe('batching', () => {
      it('saves 100 new products of 5 variants in a handful of statements, whatever the number of products', async () => {
        const brand = await aBrand();

        const sql = await uow().run(async (tx) => {
          const products = await draftProducts(tx, brand.id, 100, 5);
          return statementsOf(() => tx.products.saveAll(brand.id, products));
        });

        expect(sql.length).toBeLessThanOrEqual(12);
        expect(sql.filter((s) => /^insert into "variants"/.test(s))).toHaveLength(1);
        expect(sql.filter((s) => /^insert into "variant_prices"/.test(s))).toHaveLength(1);
      });

      it('updates 100 existing products of 5 variants in a handful of statements too', async () => {
        const brand = await aBrand();
        const products = await uow().run(async (tx) => {
          const drafted = await draftProducts(tx, brand.id, 100, 5);
          await tx.products.saveAll(brand.id, drafted);
          return drafted;
        });
        const renamed = products.map((a) => ({ ...a, product: { ...a.product, name: `${a.product.name} (renamed)` } }));

        const sql = await statementsOf(() => uow().run((tx) => tx.products.saveAll(brand.id, renamed)));

        expect(sql.length).toBeLessThanOrEqual(18);
        expect(
          (await uow().read((r) => r.products.findByIds(brand.id, [products[42]!.product.id])))[0]!.product.name,
        ).toMatch(/renamed/);
      });

      it('loads 100 whole aggregates with one query per table', async () => {
        const brand = await aBrand();
        const products = await uow().run(async (tx) => {
          const drafted = await draftProducts(tx, brand.id, 100, 5);
          await tx.products.saveAll(brand.id, drafted);
          return drafted;
        });

        let found: unknown[] = [];
        const sql = await statementsOf(async () => {
          found = await uow().read((r) =>
            r.products.findByItemNumbers(
              brand.id,
              products.map((a) => a.product.itemNumber),
            ),
          );
        });

        expect(found).toHaveLength(100);
        expect(sql.length).toBeLessThanOrEqual(8);
      });

      it('lists products without touching the variant tables unless an include asks for variants', async () => {
        const brand = await aBrand();
        await uow().run(async (tx) => tx.products.saveAll(brand.id, await draftProducts(tx, brand.id, 3, 2)));

        const plain = await statementsOf(() => listProducts(brand.id, {}));
        const withVariants = await statementsOf(() => listProducts(brand.id, { includes: ['variants'] }));

        expect(plain.some((s) => /"variants"|"variant_prices"/.test(s))).toBe(false);
        expect(withVariants.some((s) => /from "variants"/.test(s))).toBe(true);
      });

      it(
        'cuts statements that would bind too many parameters (1,500 products in one call, 6,000 ids in one lookup)',
        async () => {
          const brand = await aBrand();
          const products = await uow().run(async (tx) => {
            const drafted = await draftProducts(tx, brand.id, 1500, 1);
            await tx.products.saveAll(brand.id, drafted);
            return drafted;
          });
          const ids = products.map((a) => a.product.id);
          const unknown = Array.from({ length: 4500 }, (_, i) => 900_000_000 + i);

          const found = await uow().read((r) => r.products.findByIds(brand.id, [...ids, ...unknown]));

          expect(found).toHaveLength(1500);
          expect(found.every((a) => a.variants.length === 1 && a.variants[0]!.prices.length === 1)).toBe(true);
        },
        SLOW,
      );
    });

    describe('row counters', () => {
      it('keeps the unfiltered product and variant totals equal to the rows through creates, updates and deletes', async () => {
        const brand = await aBrand();
        const products = await uow().run(async (tx) => {
          const drafted = await draftProducts(tx, brand.id, 3, 2);
          await tx.products.saveAll(brand.id, drafted);
          return drafted;
        });
        await uow().run(async (tx) => {
          const [extra] = await tx.ids.next('variants');
          const first = products[0]!;
          const variant = {
            ...first.variants[0]!.variant,
            id: extra!,
            sku: `${first.product.itemNumber}-extra`,
            ean: null,
          };
          await tx.products.saveAll(brand.id, [{ ...first, variants: [{ variant, prices: [], costPrices: [] }] }]);
        });
        await uow().run((tx) => tx.products.deleteProduct(brand.id, products[1]!.product.id));
        await uow().run((tx) => tx.products.deleteVariant(brand.id, products[2]!.variants[0]!.variant.id));

        const everything = { filter_groups: [{ filters: [{ key: 'id', operator: 'gt', value: '0' }] }] };
        expect((await listProducts(brand.id, {})).page.total).toBe(2);
        expect((await listProducts(brand.id, everything)).page.total).toBe(2);
        expect((await listVariants(brand.id, {})).page.total).toBe(4);
        expect((await listVariants(brand.id, everything)).page.total).toBe(4);
      });
    });

    describe('schema constraints', () => {
      it(
        'holds one category per parent and name, ignoring case, top categories included',
        async () => {
          const brand = await aBrand();
          const shoes = await aCategory(brand.id, 'Shoes');
          await aCategory(brand.id, 'Sneakers', shoes.id);

          await expect(aCategory(brand.id, 'SHOES')).rejects.toThrow();
          await expect(aCategory(brand.id, 'sneakers', shoes.id)).rejects.toThrow();
          await expect(aCategory(brand.id, 'Sneakers')).resolves.toMatchObject({ parentId: null });
          await expect(aCategory((await aBrand()).id, 'Shoes')).resolves.toMatchObject({ name: 'Shoes' });
        },
        SLOW,
      );

      it('deletes the subcategories of a deleted top category and detaches the products of both', async () => {
        const brand = await aBrand();
        const top = await aCategory(brand.id, 'Bags');
        const sub = await aCategory(brand.id, 'Totes', top.id);
        const other = await aCategory(brand.id, 'Belts');
        const [product] = await uow().run(async (tx) => {
          const drafted = await draftProducts(tx, brand.id, 1, 1);
          drafted[0]!.product.categoryIds = [top.id, sub.id, other.id];
          await tx.products.saveAll(brand.id, drafted);
          return drafted;
        });

        await uow().run((tx) => tx.categories.delete(brand.id, [top.id]));

        expect(await uow().read((r) => r.categories.findByIds(brand.id, [top.id, sub.id, other.id]))).toEqual([other]);
        expect(
          (await uow().read((r) => r.products.findByIds(brand.id, [product!.product.id])))[0]!.product.categoryIds,
        ).toEqual([other.id]);
      });

      it(
        'keeps one default cost price set per currency',
        async () => {
          const brand = await aBrand();
          const aSet = (fields: Partial<CostPriceSet>) =>
            uow().run(async (tx) => {
              const [id] = await tx.ids.next('cost_price_sets');
              await tx.costPriceSets.insert({
                id: id!,
                brandId: brand.id,
                label: `Set ${id}`,
                currency: 'EUR',
                isDefault: true,
                createdAt: T0,
                ...fields,
              });
            });
          await aSet({});

          await expect(aSet({})).rejects.toThrow();
          await expect(aSet({ currency: 'USD' })).resolves.toBeUndefined();
          await expect(aSet({ isDefault: false })).resolves.toBeUndefined();
          expect(
            (await uow().read((r) => r.costPriceSets.all(brand.id))).map((s) => [s.currency, s.isDefault]),
          ).toEqual([
            ['EUR', true],
            ['USD', true],
            ['EUR', false],
          ]);
        },
        SLOW,
      );

      it('names products as what refers to a supplier, and refuses to delete the supplier', async () => {
        const brand = await aBrand();
        const supplier = await aSupplier(brand.id);
        await uow().run(async (tx) => {
          const drafted = await draftProducts(tx, brand.id, 1, 1);
          drafted[0]!.suppliers = [
            {
              productId: drafted[0]!.product.id,
              supplierId: supplier.id,
              primary: true,
              leadTimeType: 'weeks',
              leadTimeFrom: 2,
              leadTimeTo: 4,
              costPriceSetId: null,
            },
          ];
          await tx.products.saveAll(brand.id, drafted);
        });

        expect(await uow().read((r) => r.suppliers.dependentsOf(brand.id, supplier.id))).toEqual(['products']);
        const refusal = await uow()
          .run((tx) => tx.suppliers.delete(brand.id, supplier.id))
          .catch((e: unknown) => e);
        expect(isDomainError(refusal) && refusal.code).toBe('has_dependents');
      });

      // Ids come from one sequence, so two brands never draw the same one; a caller that passes
      // another brand's id anyway writes under its own brand's key (brand_id, id) and never
      // reaches the other brand's row.
      it("leaves another brand's product alone when a product is saved under its id", async () => {
        const owner = await aBrand();
        const intruder = await aBrand();
        const [product] = await uow().run(async (tx) => {
          const drafted = await draftProducts(tx, owner.id, 1, 1);
          await tx.products.saveAll(owner.id, drafted);
          return drafted;
        });
        const hijack = {
          ...product!,
          product: { ...product!.product, brandId: intruder.id, name: 'Hijacked' },
          variants: [],
        };

        await uow().run((tx) => tx.products.saveAll(intruder.id, [hijack]));
        expect((await uow().read((r) => r.products.findByIds(owner.id, [product!.product.id])))[0]!.product.name).toBe(
          product!.product.name,
        );
        const [own] = await uow().read((r) => r.products.findByIds(intruder.id, [product!.product.id]));
        expect(own!.product).toMatchObject({ brandId: intruder.id, name: 'Hijacked' });
      });
    });

    describe('concurrency', () => {
      it(
        'makes exactly one default location when 10 transactions ensure it at once',
        async () => {
          const brand = await aBrand();
          const clock = new FixedClock();

          const made = await Promise.all(
            Array.from({ length: 10 }, () => uow().run((tx) => ensureDefaultLocation(tx, clock, brand.id))),
          );

          expect(new Set(made.map((l) => l.id)).size).toBe(1);
          const all = await uow().read((r) =>
            r.inventoryLocations.list(brand.id, {
              filterGroups: [],
              sort: [{ key: 'id', direction: 'ASC' }],
              includes: [],
              limit: 100,
              page: 0,
              after: null,
              withTotal: true,
            }),
          );
          expect(all.rows.filter((l) => l.isDefault)).toHaveLength(1);
          expect(all.total).toBe(1);
        },
        SLOW,
      );

      it(
        'sets an absolute quantity exactly when 10 transactions read the balance and apply the difference at once',
        async () => {
          const brand = await aBrand();
          const location = await aLocation(brand.id, true);
          const [product] = await uow().run(async (tx) => {
            const drafted = await draftProducts(tx, brand.id, 1, 1);
            await tx.products.saveAll(brand.id, drafted);
            return drafted;
          });
          const variantId = product!.variants[0]!.variant.id;
          const movement = (delta: number) => ({
            brandId: brand.id,
            variantId,
            locationId: location.id,
            inStockDelta: delta,
            reservedDelta: 0,
            reason: 'sync_quantity' as const,
            note: null,
            documentType: null,
            documentId: null,
            userId: null,
          });
          await uow().run((tx) => tx.stock.apply(brand.id, [movement(5)], T0));
          const targets = [10, 3, 17, 8, 25, 1, 12, 30, 7, 20];
          const finishOrder: number[] = [];

          await Promise.all(
            targets.map((target) =>
              uow().run(async (tx) => {
                const [balance] = await tx.stock.balances(brand.id, [variantId], location.id);
                // Give the other transactions time to read too: without the row lock they would all see 5.
                await new Promise((resolve) => setTimeout(resolve, 5));
                const [after] = await tx.stock.apply(brand.id, [movement(target - (balance?.inStock ?? 0))], T0);
                finishOrder.push(target);
                return after;
              }),
            ),
          );

          const [final] = await uow().read((r) => r.stock.balances(brand.id, [variantId]));
          const ledger = await uow().read((r) => r.stock.movements(brand.id, variantId, 100));
          expect(final!.inStock).toBe(finishOrder[finishOrder.length - 1]);
          expect(ledger.reduce((sum, m) => sum + m.inStockDelta, 0)).toBe(final!.inStock);
          expect(ledger).toHaveLength(11);
        },
        SLOW,
      );
    });
  });
}
