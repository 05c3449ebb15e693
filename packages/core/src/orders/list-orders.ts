import { ExportMark } from '../documents/document.entities';
import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { marksByDocument } from './marks-by-document';
import { Order } from './order.entities';
import { orderListDefinition } from './order.list-definitions';

/** Lists a brand's orders (`GET /v10/orders`), lines when included, with each order's export marks. */
export async function listOrders(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'orders'>> },
  request: ListRequest,
): Promise<{ page: Page<Order>; query: ListQuery; exports: Map<number, ExportMark[]> }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(orderListDefinition, request, (q) => repos.orders.list(request.brandId, q));
    const exports = await marksByDocument(
      repos,
      request.brandId,
      'order',
      page.items.map((o) => o.id),
    );
    return { page, query, exports };
  });
}
