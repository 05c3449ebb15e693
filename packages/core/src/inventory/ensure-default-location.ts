import { Clock } from '../shared/clock.ports';
import { Repositories } from '../shared/unit-of-work.ports';
import { InventoryLocation } from './inventory.entities';

/** The name a brand's first, default location gets when stock arrives before any location was made. */
export const DEFAULT_LOCATION_NAME = 'Main warehouse';

/**
 * Returns the brand's default inventory location, creating it inside the caller's transaction
 * when the brand has none yet (stock synced without `inventory_location_id` goes there).
 */
export async function ensureDefaultLocation(
  tx: Pick<Repositories, 'ids' | 'inventoryLocations'>,
  clock: Clock,
  brandId: number,
): Promise<InventoryLocation> {
  const existing = await tx.inventoryLocations.findDefault(brandId);
  if (existing) return existing;
  const [id] = await tx.ids.next('inventory_locations');
  const now = clock.now();
  const location: InventoryLocation = {
    id: id!,
    brandId,
    name: DEFAULT_LOCATION_NAME,
    isDefault: true,
    createdAt: now,
    updatedAt: now,
  };
  await tx.inventoryLocations.insert(location);
  return location;
}
