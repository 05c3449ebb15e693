import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ReturnPortal } from './return.entities';
import { returnPortalListDefinition } from './return.list-definitions';

/** Lists a brand's return portals (`GET /v10/return-portals`). */
export async function listReturnPortals(
  deps: { uow: UnitOfWork<Pick<Repositories, 'returnPortals'>> },
  request: ListRequest,
): Promise<{ page: Page<ReturnPortal>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(returnPortalListDefinition, request, (q) => repos.returnPortals.list(request.brandId, q)),
  );
}
