import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { variantListDefinition } from './catalog.list-definitions';
import { VariantRef } from './catalog.ports';
import { VariantRelations, loadVariantRelations } from './catalog-relations';

/**
 * What `listVariants` returns: a page of variants, the validated query and the related records its
 * includes ask for.
 */
export interface VariantListResult {
  page: Page<VariantRef>;
  query: ListQuery;
  relations: VariantRelations;
}

/**
 * Lists a brand's variants (`GET /v10/variants`) with filters, offset or keyset pagination and
 * the includes `prices`, `inventory`, `cost_prices` and `product`, each loaded in one batch for
 * the whole page.
 *
 * @example
 * const { page, relations } = await listVariants({ uow }, { brandId, query: { includes: ['prices', 'inventory'] } });
 */
export async function listVariants(
  deps: { uow: UnitOfWork<Pick<Repositories, 'costPriceSets' | 'products' | 'stock'>> },
  request: ListRequest,
): Promise<VariantListResult> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(variantListDefinition, request, (q) =>
      repos.products.listVariants(request.brandId, q),
    );
    const relations = await loadVariantRelations(repos, request.brandId, page.items, query.includes);
    return { page, query, relations };
  });
}
