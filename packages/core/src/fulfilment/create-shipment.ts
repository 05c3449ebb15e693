import { NewTimelineEvent } from '../documents/document.entities';
import { NewDomainEvent } from '../events/event.entities';
import { Order } from '../orders/order.entities';
import { Repositories } from '../shared/unit-of-work.ports';
import { Shipment, ShipmentLine } from './shipment.entities';

/**
 * Saves the order with the given pieces (order line id → pieces) counted as shipped, and a new
 * open shipment holding them, inside the caller's transaction; with no pieces it only saves the
 * order. Used by approving an order (all open pieces), by partial shipments and by auto-approve.
 *
 * The order's shipping cost travels on its first shipment: the new shipment carries it unless an
 * open or delivered shipment of the order (`otherShipments`) already does (a cancelled one gave
 * it back).
 *
 * It announces nothing and writes no timeline: it returns the `shipment.created` event of the
 * new shipment (`events`, none without a shipment; its timeline note is the shipment's `created`
 * entry) and what the order's timeline says of it (`shipment_created`) in the two forms its
 * callers need, both empty without a shipment:
 * - `orderTimeline`, the entry by hand, for a caller whose own event announces the order as saved
 *   here: an approval records `order.approved`, then `events`, then appends `orderTimeline`, so the
 *   order's timeline reads `approved`, then `shipment_created`;
 * - `orderUpdated`, the order's `order.updated` carrying that entry, for a caller with no event of
 *   the order (a partial shipment), which records it before `events`, as the order is saved first.
 */
export async function createShipment(
  tx: Pick<Repositories, 'documentNumbers' | 'ids' | 'orders' | 'shipments'>,
  input: {
    order: Order;
    pieces: ReadonlyMap<number, number>;
    otherShipments: readonly Shipment[];
    userId: number | null;
    at: string;
  },
): Promise<{
  order: Order;
  shipment: Shipment | null;
  events: NewDomainEvent<'shipment.created'>[];
  orderTimeline: NewTimelineEvent[];
  orderUpdated: NewDomainEvent<'order.updated'>[];
}> {
  const { order, at } = input;
  const shipped = order.lines.flatMap((line) => {
    const pieces = Math.min(input.pieces.get(line.id) ?? 0, line.quantity - line.shippedQuantity);
    return pieces > 0 ? [{ line, pieces }] : [];
  });
  if (shipped.length === 0) {
    await tx.orders.save(order);
    return { order, shipment: null, events: [], orderTimeline: [], orderUpdated: [] };
  }
  const byLine = new Map(shipped.map((s) => [s.line.id, s.pieces]));
  const updated: Order = {
    ...order,
    updatedAt: at,
    lines: order.lines.map((l) => ({ ...l, shippedQuantity: l.shippedQuantity + (byLine.get(l.id) ?? 0) })),
  };
  const [id] = await tx.ids.next('shipments');
  const lineIds = await tx.ids.next('shipment_lines', shipped.length);
  const lines: ShipmentLine[] = shipped.map(({ line, pieces }, i) => ({
    id: lineIds[i]!,
    shipmentId: id!,
    orderLineId: line.id,
    variantId: line.variantId,
    sku: line.sku,
    ean: line.ean,
    quantity: pieces,
    deliveredQuantity: 0,
  }));
  const shippingTaken = input.otherShipments.some((s) => s.status !== 'cancelled' && s.shippingCost !== null);
  const shipment: Shipment = {
    id: id!,
    brandId: order.brandId,
    shipmentNumber: await tx.documentNumbers.next(order.brandId, 'shipment'),
    orderId: order.id,
    orderNumber: order.orderNumber,
    customerId: order.customerId,
    status: 'open',
    shippingCost: shippingTaken ? null : order.shippingCost,
    carrier: null,
    colli: [],
    deliveredAt: null,
    cancelledAt: null,
    createdAt: at,
    updatedAt: at,
    lines,
  };
  await tx.orders.save(updated);
  await tx.shipments.save(shipment);
  const pieces = lines.reduce((sum, l) => sum + l.quantity, 0);
  const orderNote = `shipment ${shipment.shipmentNumber} with ${pieces} pieces`;
  return {
    order: updated,
    shipment,
    events: [
      {
        type: 'shipment.created',
        object: shipment,
        timeline: { note: `${pieces} pieces of order ${order.orderNumber}`, userId: input.userId },
      },
    ],
    orderTimeline: [
      {
        brandId: order.brandId,
        documentType: 'order',
        documentId: order.id,
        kind: 'shipment_created',
        note: orderNote,
        systemId: null,
        userId: input.userId,
        createdAt: at,
      },
    ],
    orderUpdated: [
      {
        type: 'order.updated',
        object: updated,
        timeline: { kind: 'shipment_created', note: orderNote, userId: input.userId },
      },
    ],
  };
}
