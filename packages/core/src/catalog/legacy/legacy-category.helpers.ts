import { Repositories } from '../../shared/unit-of-work.ports';
import { DomainError, ViolationList } from '../../shared/errors';
import { Category, ProductAggregate } from '../catalog.entities';
import { LEGACY_ERROR_CODES, legacyError } from './legacy.helpers';

/** Related records of categories, loaded only for the includes asked for. */
export interface LegacyCategoryRelations {
  includes: string[];
  /** Subcategories by parent id (`includes[]=children`), in id order. */
  children: Map<number, Category[]>;
  /** Products by category id (`includes[]=products`), in id order. */
  products: Map<number, ProductAggregate[]>;
}

/** Loads children and products of the categories as `includes` asks, in two queries at most. */
export async function loadCategoryRelations(
  repos: Pick<Repositories, 'categories' | 'products'>,
  brandId: number,
  categories: Category[],
  includes: string[],
): Promise<LegacyCategoryRelations> {
  const ids = categories.map((c) => c.id);
  const relations: LegacyCategoryRelations = { includes, children: new Map(), products: new Map() };
  if (ids.length === 0) return relations;
  if (includes.includes('children')) {
    const children = (await repos.categories.findChildren(brandId, ids)).sort((a, b) => a.id - b.id);
    for (const child of children) {
      if (child.parentId !== null)
        relations.children.set(child.parentId, [...(relations.children.get(child.parentId) ?? []), child]);
    }
  }
  if (includes.includes('products')) {
    const wanted = new Set(ids);
    const products = (await repos.products.findByCategoryIds(brandId, ids)).sort((a, b) => a.product.id - b.product.id);
    for (const aggregate of products) {
      for (const categoryId of aggregate.product.categoryIds) {
        if (wanted.has(categoryId))
          relations.products.set(categoryId, [...(relations.products.get(categoryId) ?? []), aggregate]);
      }
    }
  }
  return relations;
}

/** The category, or `not_found` (a category of another brand is the same as a missing one). */
export async function findCategory(
  repos: Pick<Repositories, 'categories'>,
  brandId: number,
  id: number,
): Promise<Category> {
  const [category] = await repos.categories.findByIds(brandId, [id]);
  if (!category) throw DomainError.notFound('category', id);
  return category;
}

/** Checks a category name: trimmed, not empty. */
export function checkCategoryName(name: string): string {
  const violations = new ViolationList();
  const trimmed = name.trim();
  if (trimmed === '') violations.add('/category/name', 'must not be empty');
  violations.throwIfAny();
  return trimmed;
}

/**
 * Refuses a name already used under the same parent (case-insensitively), other than by the
 * category being renamed itself: error 40001 of the older interface.
 */
export async function ensureNameFree(
  repos: Pick<Repositories, 'categories'>,
  brandId: number,
  parentId: number | null,
  name: string,
  self: number | null,
): Promise<void> {
  const taken = (await repos.categories.findByNames(brandId, [{ parentId, name }])).find(
    (c) => c.id !== self && c.parentId === parentId && c.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) {
    const where = parentId === null ? 'as a top category' : `under category ${parentId}`;
    throw legacyError('duplicate', LEGACY_ERROR_CODES.categoryExists, [
      {
        pointer: '/category/name',
        detail: `category.name: a category named ${JSON.stringify(taken.name)} already exists ${where} (id ${taken.id})`,
      },
    ]);
  }
}
