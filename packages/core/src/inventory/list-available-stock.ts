import { availableStockListDefinition } from '../catalog/catalog.list-definitions';
import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AvailableStock } from './inventory.entities';

/**
 * Lists stock per variant and location (`GET /v10/inventory-available`): in stock and
 * available (in stock − reserved). The list is cursor-only: `page` is refused, it is walked
 * with `limit` and `cursor` or `starting_after` (a balance row id), and it is never counted.
 *
 * @example
 * const { page } = await listAvailableStock({ uow }, { brandId, query: { limit: '100', starting_after: '420' } });
 */
export async function listAvailableStock(
  deps: { uow: UnitOfWork<Pick<Repositories, 'stock'>> },
  request: ListRequest,
): Promise<{ page: Page<AvailableStock>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(availableStockListDefinition, request, async (q) => {
      const { rows } = await repos.stock.listAvailable(request.brandId, q);
      // Never a total, whatever the adapter counted.
      return { rows, total: null };
    }),
  );
}
