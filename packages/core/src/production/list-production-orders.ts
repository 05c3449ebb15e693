import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { ProductionOrder } from './production.entities';
import { productionOrderListDefinition } from './production.list-definitions';
import { ProductionOrderListRepositories, ProductionRelated, loadProductionRelated } from './production-view';

/** `GET /v10/production-orders`: a page of the brand's production orders (lines always) with their export marks, and delivery notes when included. */
export async function listProductionOrders(
  deps: { uow: UnitOfWork<ProductionOrderListRepositories> },
  request: ListRequest,
): Promise<{ page: Page<ProductionOrder>; query: ListQuery; related: ProductionRelated }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(productionOrderListDefinition, request, (q) =>
      repos.productionOrders.list(request.brandId, q),
    );
    const related = await loadProductionRelated(repos, request.brandId, page.items, {
      deliveryNotes: query.includes.includes('deliveryNotes'),
      exports: true,
    });
    return { page, query, related };
  });
}
