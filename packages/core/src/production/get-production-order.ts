import { ExportMark, TimelineEvent } from '../documents/document.entities';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findProductionOrderOrFail } from './find-production-order';
import { ProductionOrder } from './production.entities';
import { ProductionRelated, loadProductionRelated } from './production-view';
import { settleAll } from '../shared/settle-all';

type GetProductionOrderRepositories = Pick<
  Repositories,
  | 'deliveryNotes'
  | 'exportMarks'
  | 'orderChannels'
  | 'orders'
  | 'productionOrders'
  | 'products'
  | 'suppliers'
  | 'timeline'
>;

/**
 * One production order of the brand (`GET /v10/production-orders/{id}`) with its export marks,
 * timeline, delivery notes, supplier and sales orders; 404 otherwise. The includes only choose
 * what the response shows, so everything is loaded (one order: a handful of reads), except the
 * catalog products and variants, read only when `withCatalog` asks for them.
 */
export async function getProductionOrder(
  deps: { uow: UnitOfWork<GetProductionOrderRepositories> },
  input: { brandId: number; productionOrderId: number; withCatalog?: boolean },
): Promise<{
  productionOrder: ProductionOrder;
  related: ProductionRelated;
  exports: ExportMark[];
  timeline: TimelineEvent[];
}> {
  return deps.uow.read(async (repos) => {
    const productionOrder = await findProductionOrderOrFail(repos, input.brandId, input.productionOrderId);
    const [related, exports, timeline] = await settleAll([
      loadProductionRelated(repos, input.brandId, [productionOrder], {
        deliveryNotes: true,
        salesOrders: true,
        catalog: input.withCatalog === true,
      }),
      repos.exportMarks.marksOf(input.brandId, 'production_order', [productionOrder.id]),
      repos.timeline.eventsOf(input.brandId, 'production_order', productionOrder.id),
    ]);
    return { productionOrder, related, exports, timeline };
  });
}
