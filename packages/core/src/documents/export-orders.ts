import { Order, OrderStatus } from '../orders/order.entities';
import { orderExportListDefinition } from '../orders/order.list-definitions';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ExportRequest, ExportResult, exportScopeOf, exportStatuses, runExport } from './export-documents';

/**
 * `GET /v10/orders/export`: approved orders the system has not exported yet; drafts, cancelled
 * and archived orders only when their flag asks for them. Lines come with `includes[]=lines`.
 */
export async function exportOrders(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'orders'>>; clock: Clock },
  input: ExportRequest & { includeNotApproved?: boolean; includeCancelled?: boolean; includeArchived?: boolean },
): Promise<ExportResult<Order>> {
  const statuses = exportStatuses<OrderStatus>(
    ['approved'],
    [
      [input.includeNotApproved, 'draft'],
      [input.includeCancelled, 'cancelled'],
      [input.includeArchived, 'archived'],
    ],
  );
  const scope = exportScopeOf(input, deps.clock, statuses);
  return deps.uow.read((repos) =>
    runExport(repos, 'order', orderExportListDefinition, input, (q) =>
      repos.orders.listForExport(input.list.brandId, q, scope),
    ),
  );
}
