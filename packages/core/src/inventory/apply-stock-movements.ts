import { NewDomainEvent } from '../events/event.entities';
import { recordEvents } from '../events/record-events';
import { Repositories } from '../shared/unit-of-work.ports';
import { AppliedStock, AvailableStock, NewStockMovement } from './inventory.entities';

/** What recording `inventory.changed` events needs besides the stock. */
type EventRepositories = 'events' | 'ids' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints';

/** The row of `GET /v10/inventory-available` of a balance as it was left. */
const availableStockOf = (b: AppliedStock): AvailableStock => ({
  id: b.id,
  variantId: b.variantId,
  sku: b.sku,
  ean: b.ean,
  locationId: b.locationId,
  inStock: b.inStock,
  available: b.inStock - b.reserved,
  updatedAt: b.updatedAt,
});

const balanceKey = (variantId: number, locationId: number): string => `${variantId}:${locationId}`;

/**
 * Applies stock movements in the caller's transaction (ledger rows and balances, as
 * `StockRepository.apply`) and returns, without recording them, the `inventory.changed` events
 * they call for (DESIGN §10): one per variant and location whose In stock or Available moved,
 * net over the movements (a movement taking a piece out of both In stock and reserved moves In
 * stock only; movements that add up to nothing announce nothing), carrying the row of
 * `GET /v10/inventory-available` as the movements left it, in the order the movements first
 * touched the balances. For a use case that records them with its own events in one
 * `recordEvents` call (placing an order); the caller must record them in the same transaction.
 * Any other use case calls `applyStockMovements`.
 */
export async function applyStockMovementsWithEvents(
  tx: Pick<Repositories, 'stock'>,
  brandId: number,
  movements: NewStockMovement[],
  at: string,
): Promise<{ balances: AppliedStock[]; events: NewDomainEvent<'inventory.changed'>[] }> {
  if (movements.length === 0) return { balances: [], events: [] };
  const balances = await tx.stock.applyWithVariants(brandId, movements, at);
  const moved = new Map<string, { inStock: number; available: number }>();
  for (const m of movements) {
    const key = balanceKey(m.variantId, m.locationId);
    const net = moved.get(key) ?? { inStock: 0, available: 0 };
    net.inStock += m.inStockDelta;
    net.available += m.inStockDelta - m.reservedDelta;
    moved.set(key, net);
  }
  const events = balances.flatMap((b): NewDomainEvent<'inventory.changed'>[] => {
    const net = moved.get(balanceKey(b.variantId, b.locationId));
    return net && (net.inStock !== 0 || net.available !== 0)
      ? [{ type: 'inventory.changed', object: availableStockOf(b) }]
      : [];
  });
  return { balances, events };
}

/**
 * Applies stock movements in the caller's transaction and announces them: the one way use cases
 * move stock. Records one `inventory.changed` per variant and location whose In stock or
 * Available moved (see `applyStockMovementsWithEvents`), so stock movements and their events
 * commit or roll back together. A transaction must move each balance through one call (collect
 * its movements first): two calls touching one balance would announce it twice.
 * Returns the touched balances, one per variant and location, in the order first touched.
 *
 * @example
 * await applyStockMovements(tx, brandId, [{ brandId, variantId, locationId, inStockDelta: 5, reservedDelta: 0, reason: 'return_received', … }], at);
 */
export async function applyStockMovements(
  tx: Pick<Repositories, EventRepositories | 'stock'>,
  brandId: number,
  movements: NewStockMovement[],
  at: string,
): Promise<AppliedStock[]> {
  const { balances, events } = await applyStockMovementsWithEvents(tx, brandId, movements, at);
  await recordEvents(tx, brandId, at, events);
  return balances;
}
