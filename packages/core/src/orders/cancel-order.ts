import { recordEvents } from '../events/record-events';
import { Shipment } from '../fulfilment/shipment.entities';
import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findOrderOrFail } from './find-order';
import { Order } from './order.entities';
import { orderLifecycle } from './order.lifecycle';
import { releaseReservations } from './order-stock';

/**
 * Back office: cancels a draft or approved order (`POST /v10/orders/{id}/cancel`). Its open
 * shipments are cancelled with it and what it still reserves is released (Available rises,
 * In stock stays). Refused (422) once a shipment of it was delivered: those goods are gone.
 */
export async function cancelOrder(
  deps: {
    uow: UnitOfWork<
      Pick<
        Repositories,
        | 'events'
        | 'ids'
        | 'orders'
        | 'shipments'
        | 'stock'
        | 'timeline'
        | 'webhookDeliveries'
        | 'transaction'
        | 'webhookEndpoints'
      >
    >;
    clock: Clock;
  },
  input: { brandId: number; userId: number | null; orderId: number },
): Promise<Order> {
  return deps.uow.run(async (tx) => {
    const order = await findOrderOrFail(tx, input.brandId, input.orderId);
    orderLifecycle.assertTransition(order.status, 'cancelled');
    const shipments = await tx.shipments.findByOrderIds(input.brandId, [order.id]);
    const delivered = shipments.filter((s) => s.status === 'completed');
    if (delivered.length > 0) {
      throw new DomainError(
        'invalid_state_transition',
        `order ${order.orderNumber} cannot be cancelled: shipment ${delivered.map((s) => s.shipmentNumber).join(', ')} was delivered`,
        {
          data: {
            from: order.status,
            to: 'cancelled',
            allowed: [],
            deliveredShipments: delivered.map((s) => s.shipmentNumber),
          },
        },
      );
    }
    const now = deps.clock.now();
    const open = shipments.filter((s) => s.status === 'open');
    const unshipped = new Map<number, number>();
    const cancelledShipments: Shipment[] = open.map((s) => {
      for (const l of s.lines) unshipped.set(l.orderLineId, (unshipped.get(l.orderLineId) ?? 0) + l.quantity);
      return { ...s, status: 'cancelled', cancelledAt: now, updatedAt: now };
    });
    const withoutShipments: Order = {
      ...order,
      lines: order.lines.map((l) => ({ ...l, shippedQuantity: l.shippedQuantity - (unshipped.get(l.id) ?? 0) })),
    };
    const released = await releaseReservations(tx, withoutShipments, {
      brandId: order.brandId,
      userId: input.userId,
      at: now,
      documentType: 'order',
      documentId: order.id,
    });
    const cancelled: Order = { ...released, status: 'cancelled', cancelledAt: now, updatedAt: now };
    await tx.orders.save(cancelled);
    for (const s of cancelledShipments) await tx.shipments.save(s);
    await recordEvents(tx, input.brandId, now, [
      {
        type: 'order.cancelled',
        object: cancelled,
        timeline: { note: 'cancelled; reserved stock released', userId: input.userId },
      },
      ...cancelledShipments.map((s) => ({
        type: 'shipment.cancelled' as const,
        object: s,
        timeline: { note: `order ${order.orderNumber} was cancelled`, userId: input.userId },
      })),
    ]);
    return cancelled;
  });
}
