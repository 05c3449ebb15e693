import { RawListQuery } from '../../listing/list-query';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { Category } from '../catalog.entities';
import { categoryListDefinition } from '../catalog.list-definitions';
import { findCategory } from './legacy-category-rules';
import { LegacyCategoryRelations, loadCategoryRelations } from './legacy-category-view';
import { validateIncludes } from './legacy-list-request';

/** What `getCategory` returns: the category and the children and products its includes ask for. */
export interface LegacyCategoryView {
  category: Category;
  relations: LegacyCategoryRelations;
}

/** `GET /api/categories/{id}`: one category of the brand, with `children` and `products` as included. */
export async function getCategory(
  deps: { uow: UnitOfWork<Pick<Repositories, 'categories' | 'products'>> },
  input: { brandId: number; id: number; includes?: RawListQuery['includes'] },
): Promise<LegacyCategoryView> {
  const includes = validateIncludes(categoryListDefinition, input.includes);
  return deps.uow.read(async (repos) => {
    const category = await findCategory(repos, input.brandId, input.id);
    return { category, relations: await loadCategoryRelations(repos, input.brandId, [category], includes) };
  });
}
