import { availableStockListDefinition } from '../catalog/catalog.list-definitions';
import { AvailableStock } from '../inventory/inventory.entities';
import { RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DecodedCursor } from '../listing/validate-list-query';
import { aMovement, catalogBuilders } from './catalog-contract-builders';
import { byId, contractBuilders } from './contract-builders';
import { ContractStorage, SLOW, useContractStorage, walkByCursor } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of the available-stock list: one row per variant and location with what is in
 * stock and available, walked by cursor only, never counted.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeInventoryAvailableContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeInventoryAvailableContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aLocation } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aProduct } = catalogBuilders(uow);

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
  });
}
