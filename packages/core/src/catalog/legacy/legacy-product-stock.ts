import { applyStockMovements } from '../../inventory/apply-stock-movements';
import { ensureDefaultLocation } from '../../inventory/ensure-default-location';
import { InventoryLocation, NewStockMovement } from '../../inventory/inventory.entities';
import { validateListQuery } from '../../listing/validate-list-query';
import { Clock } from '../../shared/clock.ports';
import { ViolationList } from '../../shared/errors';
import { Repositories } from '../../shared/unit-of-work.ports';
import { inventoryLocationListDefinition } from '../catalog.list-definitions';
import { NormalizedStock, NormalizedVariant } from './legacy-product.input';

/*
 * Inventory keyed by stock type, as the older interface sends and shows it: `stock` (or `default`)
 * is the brand's default inventory location, any other key the name of one of its locations.
 */

/** Keys naming the brand's default inventory location (created on first use). */
export const DEFAULT_STOCK_KEYS: readonly string[] = ['stock', 'default'];

/** The key a location's stock is shown under: `stock` for the default location, else its name. */
export function stockKeyOf(location: InventoryLocation): string {
  return location.isDefault ? 'stock' : location.name;
}

async function locationsByName(
  repos: Pick<Repositories, 'inventoryLocations'>,
  brandId: number,
  names: string[],
): Promise<InventoryLocation[]> {
  const found: InventoryLocation[] = [];
  for (let i = 0; i < names.length; i += 100) {
    const chunk = names.slice(i, i + 100);
    const query = validateListQuery(inventoryLocationListDefinition, {
      filter_groups: [{ filters: [{ key: 'name', operator: 'in', value: chunk }] }],
      limit: 100,
    });
    found.push(...(await repos.inventoryLocations.list(brandId, query)).rows);
  }
  return found;
}

/**
 * Resolves the stock-type keys of the variants to inventory locations (creating the default
 * location if `stock` is used before the brand has one). Unknown keys and two keys of one
 * variant naming the same location are violations.
 */
export async function resolveStockLocations(
  tx: Pick<Repositories, 'ids' | 'inventoryLocations'>,
  clock: Clock,
  brandId: number,
  variants: NormalizedVariant[],
  violations: ViolationList,
): Promise<Map<string, InventoryLocation>> {
  const keys = [...new Set(variants.flatMap((v) => v.inventory.map((s) => s.key)))];
  const resolved = new Map<string, InventoryLocation>();
  if (keys.some((k) => DEFAULT_STOCK_KEYS.includes(k))) {
    const location = await ensureDefaultLocation(tx, clock, brandId);
    for (const key of DEFAULT_STOCK_KEYS) resolved.set(key, location);
  }
  const named = keys.filter((k) => !DEFAULT_STOCK_KEYS.includes(k));
  if (named.length > 0)
    for (const location of await locationsByName(tx, brandId, named)) resolved.set(location.name, location);
  for (const v of variants) {
    const used = new Map<number, string>();
    for (const stock of v.inventory) {
      const location = resolved.get(stock.key);
      if (!location) {
        violations.add(
          stock.pointer,
          `names no inventory location: use stock (the default location) or the name of one of the brand's inventory locations`,
        );
        continue;
      }
      const earlier = used.get(location.id);
      if (earlier !== undefined) violations.add(stock.pointer, `names the same inventory location as ${earlier}`);
      else used.set(location.id, stock.key);
    }
  }
  return resolved;
}

/** Sets the in-stock quantities (reason `api_quantity`): one ledger row per balance that changes. */
export async function applyInventory(
  tx: Pick<Repositories, 'events' | 'ids' | 'stock' | 'webhookDeliveries' | 'transaction' | 'webhookEndpoints'>,
  input: { brandId: number; userId: number | null; at: string },
  entries: { variantId: number; stock: NormalizedStock; location: InventoryLocation }[],
): Promise<void> {
  if (entries.length === 0) return;
  const balances = await tx.stock.balances(input.brandId, [...new Set(entries.map((e) => e.variantId))]);
  const movements: NewStockMovement[] = entries.flatMap(({ variantId, stock, location }) => {
    const current = balances.find((b) => b.variantId === variantId && b.locationId === location.id)?.inStock ?? 0;
    const delta = stock.quantity - current;
    if (delta === 0) return [];
    return [
      {
        brandId: input.brandId,
        variantId,
        locationId: location.id,
        inStockDelta: delta,
        reservedDelta: 0,
        reason: 'api_quantity',
        note: stock.delivery !== null ? `delivery ${stock.delivery}` : null,
        documentType: null,
        documentId: null,
        userId: input.userId,
      },
    ];
  });
  if (movements.length > 0) await applyStockMovements(tx, input.brandId, movements, input.at);
}
