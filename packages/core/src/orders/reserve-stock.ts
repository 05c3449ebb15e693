import { NewStockMovement, StockBalance } from '../inventory/inventory.entities';
import { ViolationList } from '../shared/errors';
import { Reservation } from './order.entities';

/** What one order line asks of stock. */
export interface StockDemand {
  variantId: number;
  sku: string;
  quantity: number;
  /**
   * Make-to-order and NOOS lines sell beyond stock: they reserve what is available and are never
   * short. Other lines need their variant's whole ordered quantity (over all its lines) available.
   */
  sellsBeyondStock: boolean;
  quantityPointer: string;
}

/**
 * Decides where each line's pieces are reserved, from balances read (and, on Postgres, locked)
 * in the same transaction: the default location first, then the others by id; a location never
 * gives more than it has available (in stock − reserved, never below 0). Reports every short line
 * under its quantity pointer, naming the SKU, the pieces ordered and the pieces available.
 * Returns the reservations of each demand, keyed by the demand.
 */
export function allocateStock<D extends StockDemand>(
  demands: readonly D[],
  balances: readonly StockBalance[],
  defaultLocationId: number | null,
  violations: ViolationList,
): Map<D, Reservation[]> {
  const free = new Map<number, { locationId: number; available: number }[]>();
  const ordered = [...balances].sort(
    (a, b) =>
      Number(b.locationId === defaultLocationId) - Number(a.locationId === defaultLocationId) ||
      a.locationId - b.locationId,
  );
  for (const b of ordered) {
    const list = free.get(b.variantId) ?? [];
    list.push({ locationId: b.locationId, available: Math.max(0, b.inStock - b.reserved) });
    free.set(b.variantId, list);
  }
  const availableOf = (variantId: number) => (free.get(variantId) ?? []).reduce((sum, l) => sum + l.available, 0);

  const wanted = new Map<number, { quantity: number; lines: number }>();
  for (const d of demands) {
    const w = wanted.get(d.variantId) ?? { quantity: 0, lines: 0 };
    wanted.set(d.variantId, { quantity: w.quantity + d.quantity, lines: w.lines + 1 });
  }
  for (const d of demands) {
    if (d.sellsBeyondStock) continue;
    // Every demand was counted above; the fallback only spares the non-null assertion.
    const { quantity, lines } = wanted.get(d.variantId) ?? { quantity: d.quantity, lines: 1 };
    const available = availableOf(d.variantId);
    if (quantity > available) {
      const over = lines > 1 ? ` (over ${lines} lines)` : '';
      violations.add(d.quantityPointer, `SKU ${d.sku} is short: ${quantity} ordered${over}, ${available} available`);
    }
  }

  const reservationsOf = (d: D): Reservation[] => {
    let remaining = d.quantity;
    const reservations: Reservation[] = [];
    for (const location of free.get(d.variantId) ?? []) {
      if (remaining === 0) break;
      const taken = Math.min(location.available, remaining);
      if (taken === 0) continue;
      location.available -= taken;
      remaining -= taken;
      reservations.push({ locationId: location.locationId, quantity: taken });
    }
    return reservations;
  };
  return new Map(demands.map((d) => [d, reservationsOf(d)]));
}

/** The ledger rows reserving the given lines' pieces for an order (`order_reserved`: reserved rises, in stock stays). */
export function reservationMovements(
  brandId: number,
  orderId: number,
  userId: number | null,
  lines: readonly { variantId: number; reservations: readonly Reservation[] }[],
): NewStockMovement[] {
  return lines.flatMap((line) =>
    line.reservations.map((r) => ({
      brandId,
      variantId: line.variantId,
      locationId: r.locationId,
      inStockDelta: 0,
      reservedDelta: r.quantity,
      reason: 'order_reserved' as const,
      note: null,
      documentType: 'order',
      documentId: orderId,
      userId,
    })),
  );
}
