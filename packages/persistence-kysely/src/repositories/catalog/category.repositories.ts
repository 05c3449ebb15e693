import { Category, CategoryRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { CategoriesTable } from '../../tables/catalog.tables';
import { runInChunks, selectInChunks, unique } from '../batches';
import { Executor } from '../executor';
import { toNullableNumber } from '../json-columns';

/** Case-insensitive name key; computed in JS so every adapter folds case alike (see `name_key`). */
export const categoryNameKey = (name: string): string => name.toLowerCase();

const rowToCategory = (r: Selectable<CategoriesTable>): Category => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  parentId: toNullableNumber(r.parent_id),
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const categoryToRow = (c: Category): Selectable<CategoriesTable> => ({
  id: c.id,
  brand_id: c.brandId,
  parent_id: c.parentId,
  name: c.name,
  name_key: categoryNameKey(c.name),
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/** The list keys of `categoryListDefinition`. */
const CATEGORY_COLUMNS: ListColumns = {
  id: { column: 'categories.id', type: 'integer' },
  parent: { column: 'categories.parent_id', type: 'integer' },
  name: { column: 'categories.name', type: 'string' },
  created_at: { column: 'categories.created_at', type: 'datetime' },
  updated_at: { column: 'categories.updated_at', type: 'datetime' },
};

const CATEGORY_LIST = brandTableList('categories', CATEGORY_COLUMNS);

export function categoryRepository(executor: Executor): CategoryRepository {
  const { db } = executor;
  return {
    async insert(category) {
      await db.insertInto('categories').values(categoryToRow(category)).execute();
    },
    async update(category) {
      const { parent_id, name, name_key, updated_at } = categoryToRow(category);
      await db
        .updateTable('categories')
        .set({ parent_id, name, name_key, updated_at })
        .where('brand_id', '=', category.brandId)
        .where('id', '=', category.id)
        .execute();
    },
    async findByIds(brandId, ids) {
      const rows = await selectInChunks(unique(ids), (chunk) =>
        db.selectFrom('categories').selectAll().where('brand_id', '=', brandId).where('id', 'in', chunk).execute(),
      );
      return rows.map(rowToCategory).sort((a, b) => a.id - b.id);
    },
    async findByNames(brandId, keys) {
      // One query by name key; the parent is matched in memory (NULL parents make SQL tuples awkward).
      const wanted = new Set(keys.map((k) => `${k.parentId ?? 0}:${categoryNameKey(k.name)}`));
      const rows = await selectInChunks(unique(keys.map((k) => categoryNameKey(k.name))), (names) =>
        db
          .selectFrom('categories')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('name_key', 'in', names)
          .execute(),
      );
      return rows
        .filter((r) => wanted.has(`${r.parent_id === null ? 0 : Number(r.parent_id)}:${r.name_key}`))
        .map(rowToCategory)
        .sort((a, b) => a.id - b.id);
    },
    async findChildren(brandId, parentIds) {
      const rows = await selectInChunks(unique(parentIds), (chunk) =>
        db
          .selectFrom('categories')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('parent_id', 'in', chunk)
          .execute(),
      );
      return rows.map(rowToCategory).sort((a, b) => a.id - b.id);
    },
    async delete(brandId, ids) {
      await runInChunks(unique(ids), async (chunk) => {
        // Detach products first; subcategories (and their links) go by ON DELETE CASCADE.
        await db
          .deleteFrom('product_categories')
          .where('brand_id', '=', brandId)
          .where('category_id', 'in', chunk)
          .execute();
        await db.deleteFrom('categories').where('brand_id', '=', brandId).where('id', 'in', chunk).execute();
      });
    },
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, CATEGORY_LIST, brandId, query);
      return { rows: rows.map(rowToCategory), total };
    },
  };
}
