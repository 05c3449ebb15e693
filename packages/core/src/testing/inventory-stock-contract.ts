import { Variant } from '../catalog/catalog.entities';
import { availableStockListDefinition, inventoryLocationListDefinition } from '../catalog/catalog.list-definitions';
import { Brand } from '../identity/identity.entities';
import { DEFAULT_LOCATION_NAME, ensureDefaultLocation } from '../inventory/ensure-default-location';
import { StockBalance, StockMovement } from '../inventory/inventory.entities';
import { RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { FixedClock } from '../shared/clock.ports';
import { aMovement, catalogBuilders } from './catalog-contract-builders';
import { byId, contractBuilders } from './contract-builders';
import { ContractStorage, PlannedFailure, SLOW, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of inventory locations, stock balances and the stock ledger.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeInventoryStockContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeInventoryStockContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aUser, aLocation } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aProduct } = catalogBuilders(uow);

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
  });
}
