import { Category } from '../catalog/catalog.entities';
import { categoryListDefinition } from '../catalog/catalog.list-definitions';
import { RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { catalogBuilders } from './catalog-contract-builders';
import { byId, contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The contract of the category tree.
 *
 * Run against every storage adapter (in memory, SQLite, Postgres); `open` is called once per suite
 * (`sharedContractStorage` lets the suites of a test file share one storage), and every test makes
 * its own brand(s). Aggregates are compared in the order `canonicalAggregate` gives; lookups whose
 * order the ports do not promise are compared after sorting by id. No test relies on ids being
 * consecutive.
 *
 * @example
 * describeCatalogCategoriesContract('in-memory storage', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCatalogCategoriesContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand } = contractBuilders(uow, { at: T0, brandLabel: 'Catalog brand' });
    const { aCategory, aProduct, oneProduct } = catalogBuilders(uow);

    // ---- categories -----------------------------------------------------------------------

    describe('categories', () => {
      it('stores top categories and subcategories and finds them by ids', async () => {
        const brand = await aBrand();
        const top = await aCategory(brand.id, 'Women', null, {
          createdAt: '2026-02-01T10:00:00.000Z',
          updatedAt: '2026-02-02T10:00:00.000Z',
        });
        const sub = await aCategory(brand.id, 'Dresses', top.id);

        expect(
          byId(await uow().read((r) => r.categories.findByIds(brand.id, [sub.id, top.id, 987_654_321]))),
        ).toStrictEqual([top, sub]);
        expect(await uow().read((r) => r.categories.findByIds(brand.id, []))).toStrictEqual([]);
      });

      it('updates the name and parent of a category, but never one of another brand', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const men = await aCategory(brand.id, 'Men');
        const shirts = await aCategory(brand.id, 'Shirts');
        const renamed: Category = {
          ...shirts,
          name: 'Shirts & Tops',
          parentId: men.id,
          updatedAt: '2026-03-03T00:00:00.000Z',
        };

        await uow().run(async (tx) => {
          await tx.categories.update(renamed);
          await tx.categories.update({ ...men, brandId: other.id, name: 'Hijacked' });
        });

        expect(byId(await uow().read((r) => r.categories.findByIds(brand.id, [men.id, shirts.id])))).toStrictEqual([
          men,
          renamed,
        ]);
        expect(await uow().read((r) => r.categories.findByIds(other.id, [men.id]))).toStrictEqual([]);
      });

      it('finds categories by parent and name, ignoring the case of the name but never the parent', async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const jackets = await aCategory(brand.id, 'Jackets');
        const men = await aCategory(brand.id, 'Men');
        const menJackets = await aCategory(brand.id, 'Jackets', men.id);
        const umlaut = await aCategory(brand.id, 'Überjacken', men.id);
        await aCategory(other.id, 'Jackets');
        const find = (keys: { parentId: number | null; name: string }[]) =>
          uow().read(async (r) => byId(await r.categories.findByNames(brand.id, keys)));

        expect(await find([{ parentId: null, name: 'JACKETS' }])).toStrictEqual([jackets]);
        expect(await find([{ parentId: men.id, name: 'jackets' }])).toStrictEqual([menJackets]);
        expect(await find([{ parentId: men.id, name: 'überJACKEN' }])).toStrictEqual([umlaut]);
        expect(
          await find([
            { parentId: null, name: 'jackets' },
            { parentId: men.id, name: 'Jackets' },
            { parentId: null, name: 'men' },
          ]),
        ).toStrictEqual([jackets, men, menJackets]);
        expect(
          await find([
            { parentId: jackets.id, name: 'Jackets' },
            { parentId: null, name: 'Jacket' },
          ]),
        ).toStrictEqual([]);
        expect(await find([])).toStrictEqual([]);
      });

      it('finds the children of the given parents', async () => {
        const brand = await aBrand();
        const [women, men, kids] = [
          await aCategory(brand.id, 'Women'),
          await aCategory(brand.id, 'Men'),
          await aCategory(brand.id, 'Kids'),
        ];
        const dresses = await aCategory(brand.id, 'Dresses', women.id);
        const suits = await aCategory(brand.id, 'Suits', men.id);
        await aCategory(brand.id, 'Toys', kids.id);

        expect(byId(await uow().read((r) => r.categories.findChildren(brand.id, [women.id, men.id])))).toStrictEqual([
          dresses,
          suits,
        ]);
        expect(await uow().read((r) => r.categories.findChildren(brand.id, [dresses.id]))).toStrictEqual([]);
        expect(await uow().read((r) => r.categories.findChildren(brand.id, []))).toStrictEqual([]);
      });

      it('deletes categories and detaches their products without deleting them', async () => {
        const brand = await aBrand();
        const top = await aCategory(brand.id, 'Sale');
        const sub = await aCategory(brand.id, 'Last chance', top.id);
        const kept = await aCategory(brand.id, 'Basics');
        const inBoth = await aProduct(brand.id, { categoryIds: [top.id, sub.id, kept.id] });
        const onlySub = await aProduct(brand.id, { categoryIds: [sub.id] });

        await uow().run((tx) => tx.categories.delete(brand.id, [sub.id, top.id]));

        expect(await uow().read((r) => r.categories.findByIds(brand.id, [top.id, sub.id, kept.id]))).toStrictEqual([
          kept,
        ]);
        expect(await oneProduct(brand.id, inBoth.product.id)).toStrictEqual({
          ...inBoth,
          product: { ...inBoth.product, categoryIds: [kept.id] },
        });
        expect(await oneProduct(brand.id, onlySub.product.id)).toStrictEqual({
          ...onlySub,
          product: { ...onlySub.product, categoryIds: [] },
        });
        expect(await uow().read((r) => r.products.findByCategoryIds(brand.id, [top.id, sub.id]))).toStrictEqual([]);
      });

      it("never deletes another brand's category", async () => {
        const brand = await aBrand();
        const other = await aBrand('Other');
        const category = await aCategory(brand.id, 'Mine');

        await uow().run((tx) => tx.categories.delete(other.id, [category.id]));

        expect(await uow().read((r) => r.categories.findByIds(brand.id, [category.id]))).toStrictEqual([category]);
        expect(await uow().read((r) => r.categories.findChildren(other.id, [category.id]))).toStrictEqual([]);
        expect(
          await uow().read((r) => r.categories.findByNames(other.id, [{ parentId: null, name: 'Mine' }])),
        ).toStrictEqual([]);
      });

      it("lists the brand's categories with filters, sorted, with the total", async () => {
        const brand = await aBrand();
        const neighbour = await aBrand('Neighbour');
        await aCategory(neighbour.id, 'Accessories');
        const shoes = await aCategory(brand.id, 'Shoes');
        const accessories = await aCategory(brand.id, 'Accessories');
        const sneakers = await aCategory(brand.id, 'Sneakers', shoes.id);
        const belts = await aCategory(brand.id, 'Belts', accessories.id);
        const list = (raw: RawListQuery) =>
          uow().read((r) =>
            runList(categoryListDefinition, { brandId: brand.id, query: raw }, (q) => r.categories.list(brand.id, q)),
          );

        expect((await list({})).page).toMatchObject({
          items: [shoes, accessories, sneakers, belts],
          total: 4,
          hasMore: false,
        });
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'parent', operator: 'eq', value: 'null' }] }] })).page.items,
        ).toStrictEqual([shoes, accessories]);
        expect(
          (await list({ filter_groups: [{ filters: [{ key: 'parent', operator: 'eq', value: String(shoes.id) }] }] }))
            .page.items,
        ).toStrictEqual([sneakers]);
        expect((await list({ sort: [{ key: 'name', direction: 'ASC' }] })).page.items).toStrictEqual([
          accessories,
          belts,
          shoes,
          sneakers,
        ]);
        expect(
          (
            await list({
              filter_groups: [{ filters: [{ key: 'name', operator: 'sw', value: 's' }] }],
              sort: [{ key: 'name', direction: 'DESC' }],
            })
          ).page.items,
        ).toStrictEqual([sneakers, shoes]);
      });
    });
  });
}
