import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { InventoryLocation } from './inventory.entities';

/**
 * Back office: adds an inventory location (a warehouse, a shop's stock room). The brand's first
 * location becomes its default, where stock goes when no location is named; later ones are not
 * default. When stock arrived before any location was made, `ensureDefaultLocation` already
 * created the default ("Main warehouse"), so a location made afterwards is not default.
 * Two concurrent first locations cannot both become default: storage allows one default per
 * brand, and the losing transaction is retried and then sees the winner's default.
 *
 * @example
 * const location = await createInventoryLocation({ uow, clock }, { brandId, name: 'Rotterdam DC' });
 */
export async function createInventoryLocation(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'inventoryLocations'>>; clock: Clock },
  input: { brandId: number; name: string },
): Promise<InventoryLocation> {
  const name = input.name.trim();
  const violations = new ViolationList();
  if (name === '') violations.add('/name', 'must not be empty');
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    const isDefault = (await tx.inventoryLocations.findDefault(input.brandId)) === null;
    const [id] = await tx.ids.next('inventory_locations');
    const now = deps.clock.now();
    const location: InventoryLocation = {
      id: id!,
      brandId: input.brandId,
      name,
      isDefault,
      createdAt: now,
      updatedAt: now,
    };
    await tx.inventoryLocations.insert(location);
    return location;
  });
}
