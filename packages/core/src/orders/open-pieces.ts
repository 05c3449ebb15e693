import { Order } from './order.entities';

/** Pieces of each line not yet on a shipment (order line id → pieces), lines with none left out. */
export function openPieces(order: Order): Map<number, number> {
  return new Map(
    order.lines.flatMap((l) =>
      l.quantity - l.shippedQuantity > 0 ? [[l.id, l.quantity - l.shippedQuantity] as const] : [],
    ),
  );
}
