import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Drop } from './catalog.entities';
import { dropListDefinition } from './catalog.list-definitions';

/** Lists a brand's drops (`GET /v10/drops`). */
export async function listDrops(
  deps: { uow: UnitOfWork<Pick<Repositories, 'drops'>> },
  request: ListRequest,
): Promise<{ page: Page<Drop>; query: ListQuery }> {
  return deps.uow.read((repos) => runList(dropListDefinition, request, (q) => repos.drops.list(request.brandId, q)));
}
