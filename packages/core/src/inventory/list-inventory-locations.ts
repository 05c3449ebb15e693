import { inventoryLocationListDefinition } from '../catalog/catalog.list-definitions';
import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { InventoryLocation } from './inventory.entities';

/** Lists a brand's inventory locations (`GET /v10/inventory-locations`); `is_default` marks the default one. */
export async function listInventoryLocations(
  deps: { uow: UnitOfWork<Pick<Repositories, 'inventoryLocations'>> },
  request: ListRequest,
): Promise<{ page: Page<InventoryLocation>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(inventoryLocationListDefinition, request, (q) => repos.inventoryLocations.list(request.brandId, q)),
  );
}
