import { recordEvents } from '../events/record-events';
import { Order } from '../orders/order.entities';
import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ShipmentView, loadShipmentViews } from './shipment-view';
import { Shipment } from './shipment.entities';
import { shipmentLifecycle } from './shipment.lifecycle';

type CancelShipmentRepositories = Pick<
  Repositories,
  | 'customers'
  | 'events'
  | 'exportMarks'
  | 'ids'
  | 'orders'
  | 'paymentTerms'
  | 'shipments'
  | 'timeline'
  | 'webhookDeliveries'
  | 'transaction'
  | 'webhookEndpoints'
>;

/**
 * The warehouse cancels an open shipment (`POST /3pl/shipments/cancel`), by id or by number. Its
 * pieces go back to the order's open quantity; the order keeps its status and its reservations.
 * A delivered or already cancelled shipment is a 422; an unknown one a 422 at the field naming it.
 * Announces `shipment.cancelled`, then `order.updated` (its shipped quantities fell; the order's
 * `shipment_cancelled` entry), each as saved, in the order they are saved.
 */
export async function cancelShipment(
  deps: { uow: UnitOfWork<CancelShipmentRepositories>; clock: Clock },
  input: { brandId: number; userId: number | null; shipmentId?: number; shipmentNumber?: number },
): Promise<ShipmentView> {
  return deps.uow.run(async (tx) => {
    const shipment = await findNamedShipment(tx, input);
    shipmentLifecycle.assertTransition(shipment.status, 'cancelled');
    const [order] = await tx.orders.findByIds(input.brandId, [shipment.orderId]);
    if (!order) throw new Error(`shipment ${shipment.id} refers to order ${shipment.orderId}, which is missing`);
    const now = deps.clock.now();
    const back = new Map<number, number>();
    for (const l of shipment.lines) back.set(l.orderLineId, (back.get(l.orderLineId) ?? 0) + l.quantity);
    const cancelled: Shipment = { ...shipment, status: 'cancelled', cancelledAt: now, updatedAt: now };
    await tx.shipments.save(cancelled);
    const reopened: Order = {
      ...order,
      updatedAt: now,
      lines: order.lines.map((l) => ({ ...l, shippedQuantity: l.shippedQuantity - (back.get(l.id) ?? 0) })),
    };
    await tx.orders.save(reopened);
    const pieces = shipment.lines.reduce((sum, l) => sum + l.quantity, 0);
    await recordEvents(tx, input.brandId, now, [
      {
        type: 'shipment.cancelled',
        object: cancelled,
        timeline: {
          note: `cancelled by the warehouse; its pieces are open on order ${order.orderNumber} again`,
          userId: input.userId,
        },
      },
      {
        type: 'order.updated',
        object: reopened,
        timeline: {
          kind: 'shipment_cancelled',
          note: `shipment ${shipment.shipmentNumber} cancelled by the warehouse: ${pieces} pieces open again`,
          userId: input.userId,
        },
      },
    ]);
    return (await loadShipmentViews(tx, input.brandId, [cancelled]))[0]!;
  });
}

async function findNamedShipment(
  tx: Pick<Repositories, 'shipments'>,
  input: { brandId: number; shipmentId?: number; shipmentNumber?: number },
): Promise<Shipment> {
  const violations = new ViolationList();
  if (input.shipmentId === undefined && input.shipmentNumber === undefined)
    violations.add('/shipment_id', 'is required when shipment_number is not given');
  violations.throwIfAny();
  const shipment =
    input.shipmentId !== undefined
      ? (await tx.shipments.findByIds(input.brandId, [input.shipmentId]))[0]
      : (await tx.shipments.findByNumbers(input.brandId, [input.shipmentNumber!]))[0];
  if (!shipment) {
    if (input.shipmentId !== undefined)
      violations.add('/shipment_id', `names shipment id ${input.shipmentId}, which does not exist`);
    else violations.add('/shipment_number', `names shipment ${input.shipmentNumber}, which does not exist`);
  } else if (
    input.shipmentId !== undefined &&
    input.shipmentNumber !== undefined &&
    shipment.shipmentNumber !== input.shipmentNumber
  ) {
    violations.add(
      '/shipment_number',
      `names shipment ${input.shipmentNumber}, but shipment_id ${input.shipmentId} is shipment ${shipment.shipmentNumber}`,
    );
  }
  violations.throwIfAny();
  return shipment!;
}
