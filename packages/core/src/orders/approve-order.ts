import { recordEvents } from '../events/record-events';
import { createShipment } from '../fulfilment/create-shipment';
import { Shipment } from '../fulfilment/shipment.entities';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findOrderOrFail } from './find-order';
import { openPieces } from './open-pieces';
import { Order } from './order.entities';
import { orderLifecycle } from './order.lifecycle';

/**
 * Back office: approves a draft order (`POST /v10/orders/{id}/approve`). Unless `createShipment`
 * is false, one shipment is made for all its open pieces; with false, the pieces wait for partial
 * shipments. Any other status than draft is a 422 (`invalid_state_transition`).
 */
export async function approveOrder(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        | 'documentNumbers'
        | 'events'
        | 'ids'
        | 'orders'
        | 'shipments'
        | 'timeline'
        | 'webhookDeliveries'
        | 'transaction'
        | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: { brandId: number; userId: number | null; orderId: number; createShipment?: boolean },
): Promise<{ order: Order; shipment: Shipment | null }> {
  return deps.uow.run(async (tx) => {
    const order = await findOrderOrFail(tx, input.brandId, input.orderId);
    orderLifecycle.assertTransition(order.status, 'approved');
    const now = deps.clock.now();
    const approved: Order = { ...order, status: 'approved', approvedAt: now, updatedAt: now };
    const timeline = {
      note: input.createShipment === false ? 'approved without a shipment' : 'approved',
      userId: input.userId,
    };
    if (input.createShipment === false) {
      await tx.orders.save(approved);
      await recordEvents(tx, input.brandId, now, [{ type: 'order.approved', object: approved, timeline }]);
      return { order: approved, shipment: null };
    }
    // createShipment saves the order (before the shipment that refers to it).
    const others = await tx.shipments.findByOrderIds(input.brandId, [order.id]);
    const result = await createShipment(tx, {
      order: approved,
      pieces: openPieces(approved),
      otherShipments: others,
      userId: input.userId,
      at: now,
    });
    await recordEvents(tx, input.brandId, now, [
      { type: 'order.approved', object: result.order, timeline },
      ...result.events,
    ]);
    await tx.timeline.append(result.orderTimeline);
    return { order: result.order, shipment: result.shipment };
  });
}
