import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductAggregate } from './catalog.entities';
import { productListDefinition } from './catalog.list-definitions';
import {
  CatalogRelations,
  ProductReadRepositories,
  loadProductRelations,
  withParentIncludes,
} from './catalog-relations';

/**
 * What `listProducts` returns: a page of products, the validated query and the related records its
 * includes ask for.
 */
export interface ProductListResult {
  /** Products with their variants (and their prices and cost prices) as `includes` asked. */
  page: Page<ProductAggregate>;
  /** The validated query; `includes` holds `variants` whenever a `variants.*` include was asked. */
  query: ListQuery;
  relations: CatalogRelations;
}

/**
 * Lists a brand's products (`GET /v10/products`) with filters, offset or keyset pagination and
 * the includes `variants`, `variants.prices`, `variants.inventory`, `variants.cost_prices`,
 * `categories`, `suppliers`, `translations` and `images`. Inventory is composed from the stock
 * balances of the page's variants, read in batches, not per product.
 *
 * @example
 * const { page, relations } = await listProducts({ uow }, { brandId, query: { includes: ['variants.inventory'], limit: '50' } });
 */
export async function listProducts(
  deps: { uow: UnitOfWork<ProductReadRepositories> },
  request: ListRequest,
): Promise<ProductListResult> {
  return deps.uow.read(async (repos) => {
    const listed = await runList(productListDefinition, request, (q) =>
      repos.products.list(request.brandId, { ...q, includes: withParentIncludes(q.includes) }),
    );
    const query: ListQuery = { ...listed.query, includes: withParentIncludes(listed.query.includes) };
    const relations = await loadProductRelations(repos, request.brandId, listed.page.items, query.includes);
    return { page: listed.page, query, relations };
  });
}
