import { ListQuery, Page } from '../../listing/list-query';
import { ListRequest, runList } from '../../listing/run-list';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { Category } from '../catalog.entities';
import { categoryListDefinition } from '../catalog.list-definitions';
import { LegacyCategoryRelations, loadCategoryRelations } from './legacy-category-view';
import { legacyListRequest } from './legacy-list-request';

/**
 * What `listCategories` returns: a page of categories, the validated query and the children and
 * products its includes ask for.
 */
export interface LegacyCategoryListResult {
  page: Page<Category>;
  query: ListQuery;
  relations: LegacyCategoryRelations;
}

/**
 * `GET /api/categories`: top categories and subcategories alike (filter `parent` eq null for the
 * top ones), paged by `page` and `limit` with `total`; `children` and `products` as included.
 */
export async function listCategories(
  deps: { uow: UnitOfWork<Pick<Repositories, 'categories' | 'products'>> },
  request: ListRequest,
): Promise<LegacyCategoryListResult> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(categoryListDefinition, legacyListRequest(request), (q) =>
      repos.categories.list(request.brandId, q),
    );
    const relations = await loadCategoryRelations(repos, request.brandId, page.items, query.includes);
    return { page, query, relations };
  });
}
