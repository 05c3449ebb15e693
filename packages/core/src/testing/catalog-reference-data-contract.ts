import { Collection } from '../catalog/catalog.entities';
import { collectionListDefinition, dropListDefinition } from '../catalog/catalog.list-definitions';
import { RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { catalogBuilders } from './catalog-contract-builders';
import { byId, contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of the catalog's reference data: collections, subbrands, drops, cost price sets
 * and product locales.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeCatalogReferenceDataContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogReferenceDataContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aCostPriceSet, aLocale, aDrop, aCollection, aSubbrand } = catalogBuilders(uow);

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
  });
}
