import { ExportMark, TimelineEvent } from '../documents/document.entities';
import { Invoice } from '../finance/finance.entities';
import { Shipment } from '../fulfilment/shipment.entities';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findOrderOrFail } from './find-order';
import { Order } from './order.entities';
import { settleAll } from '../shared/settle-all';

/** One order of the brand with its lines, shipments, invoices, export marks and timeline (`GET /v10/orders/{id}`); 404 otherwise. */
export async function getOrder(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'invoices' | 'orders' | 'shipments' | 'timeline'>> },
  input: { brandId: number; orderId: number },
): Promise<{
  order: Order;
  shipments: Shipment[];
  invoices: Invoice[];
  exports: ExportMark[];
  timeline: TimelineEvent[];
}> {
  return deps.uow.read(async (repos) => {
    const order = await findOrderOrFail(repos, input.brandId, input.orderId);
    const [shipments, invoices, exports, timeline] = await settleAll([
      repos.shipments.findByOrderIds(input.brandId, [order.id]),
      repos.invoices.findByOrderIds(input.brandId, [order.id]),
      repos.exportMarks.marksOf(input.brandId, 'order', [order.id]),
      repos.timeline.eventsOf(input.brandId, 'order', order.id),
    ]);
    return { order, shipments, invoices, exports, timeline };
  });
}
