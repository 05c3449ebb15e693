import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findProductionOrderOrFail } from './find-production-order';
import { ProductionOrder } from './production.entities';
import { productionOrderLifecycle } from './production.lifecycle';

/**
 * `POST /v10/production-orders/{id}/close`: open → closed; the warehouse can no longer receive its
 * delivery notes. Announces `production_order.closed` with the order as saved.
 */
export async function closeProductionOrder(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        'events' | 'ids' | 'productionOrders' | 'timeline' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: { brandId: number; userId: number | null; productionOrderId: number },
): Promise<ProductionOrder> {
  return deps.uow.run(async (tx) => {
    const before = await findProductionOrderOrFail(tx, input.brandId, input.productionOrderId);
    productionOrderLifecycle.assertTransition(before.status, 'closed');
    const now = deps.clock.now();
    const order: ProductionOrder = { ...before, status: 'closed', closedAt: now, updatedAt: now };
    await tx.productionOrders.save(order);
    await recordEvents(tx, input.brandId, now, [
      { type: 'production_order.closed', object: order, timeline: { note: null, userId: input.userId } },
    ]);
    return order;
  });
}
