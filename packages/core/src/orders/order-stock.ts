import { applyStockMovements } from '../inventory/apply-stock-movements';
import { NewStockMovement, StockReason } from '../inventory/inventory.entities';
import { Repositories } from '../shared/unit-of-work.ports';
import { ensureDefaultLocation } from '../inventory/ensure-default-location';
import { Order, OrderLine } from './order.entities';

/**
 * The two ways an order's pieces leave its hold on stock, shared by every use case that does it
 * (cancel, mark-as-exported with `regulate_inventory`, booking an in-service invoice), so that
 * the bookkeeping of `reservations` and `regulatedQuantity` lives in one place.
 */

/** What moving stock and announcing it (`inventory.changed`) uses. */
type StockEventRepositories = 'events' | 'ids' | 'stock' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints';

interface StockChange {
  brandId: number;
  userId: number | null;
  at: string;
  documentType: string;
  documentId: number;
}

/** The pieces an order line still reserves, over all its locations. */
export const reservedQuantityOf = (line: OrderLine): number =>
  line.reservations.reduce((sum, r) => sum + r.quantity, 0);

/** Gives back everything the order's lines still reserve (cancelling): Available rises, In stock stays. */
export async function releaseReservations(
  tx: Pick<Repositories, StockEventRepositories>,
  order: Order,
  change: StockChange,
): Promise<Order> {
  const movements: NewStockMovement[] = [];
  const lines = order.lines.map((line) => {
    for (const r of line.reservations) {
      if (r.quantity === 0) continue;
      movements.push(movement(line, r.locationId, 0, -r.quantity, 'order_released', change));
    }
    return { ...line, reservations: [] };
  });
  await applyStockMovements(tx, change.brandId, movements, change.at);
  return { ...order, lines };
}

/**
 * Takes pieces out of In stock for the given order lines (`pieces`: order line id → pieces),
 * consuming the line's reservations first (In stock and reserved both drop) and, for pieces
 * sold beyond stock, In stock alone at the default location. A line is never regulated beyond
 * its quantity, so asking twice does nothing the second time.
 */
export async function regulateOrderLines(
  tx: Pick<Repositories, StockEventRepositories | 'inventoryLocations'>,
  order: Order,
  pieces: ReadonlyMap<number, number>,
  reason: Extract<StockReason, 'order_regulated' | 'invoice_regulated'>,
  change: StockChange,
): Promise<Order> {
  const planned = await planRegulation(tx, order, pieces, reason, change);
  await applyStockMovements(tx, change.brandId, planned.movements, change.at);
  return planned.order;
}

/**
 * `regulateOrderLines` without moving the stock: the order as regulated and the movements to
 * apply, for a use case that regulates several orders and moves their stock in one call (one
 * `inventory.changed` per balance and transaction).
 */
export async function planRegulation(
  tx: Pick<Repositories, 'ids' | 'inventoryLocations'>,
  order: Order,
  pieces: ReadonlyMap<number, number>,
  reason: Extract<StockReason, 'order_regulated' | 'invoice_regulated'>,
  change: StockChange,
): Promise<{ order: Order; movements: NewStockMovement[] }> {
  const movements: NewStockMovement[] = [];
  let defaultLocationId: number | null = null;
  const lines: OrderLine[] = [];
  for (const line of order.lines) {
    const wanted = Math.min(pieces.get(line.id) ?? 0, line.quantity - line.regulatedQuantity);
    if (wanted <= 0) {
      lines.push(line);
      continue;
    }
    if (!line.tracksInventory) {
      lines.push({ ...line, regulatedQuantity: line.regulatedQuantity + wanted });
      continue;
    }
    let remaining = wanted;
    const reservations = line.reservations.map((r) => {
      const taken = Math.min(r.quantity, remaining);
      remaining -= taken;
      if (taken > 0) movements.push(movement(line, r.locationId, -taken, -taken, reason, change));
      return { ...r, quantity: r.quantity - taken };
    });
    if (remaining > 0) {
      defaultLocationId ??= (await ensureDefaultLocation(tx, { now: () => change.at }, change.brandId)).id;
      movements.push(movement(line, defaultLocationId, -remaining, 0, reason, change));
    }
    lines.push({
      ...line,
      reservations: reservations.filter((r) => r.quantity > 0),
      regulatedQuantity: line.regulatedQuantity + wanted,
    });
  }
  return { order: { ...order, lines }, movements };
}

function movement(
  line: OrderLine,
  locationId: number,
  inStockDelta: number,
  reservedDelta: number,
  reason: StockReason,
  change: StockChange,
): NewStockMovement {
  return {
    brandId: change.brandId,
    variantId: line.variantId,
    locationId,
    inStockDelta,
    reservedDelta,
    reason,
    note: null,
    documentType: change.documentType,
    documentId: change.documentId,
    userId: change.userId,
  };
}
