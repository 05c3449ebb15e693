import { Repositories } from '../../shared/unit-of-work.ports';
import { Category, ProductAggregate } from '../catalog.entities';

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
