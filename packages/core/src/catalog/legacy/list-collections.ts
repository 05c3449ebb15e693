import { ListQuery, Page } from '../../listing/list-query';
import { ListRequest, runList } from '../../listing/run-list';
import { Repositories, UnitOfWork } from '../../shared/unit-of-work.ports';
import { Collection } from '../catalog.entities';
import { collectionListDefinition } from '../catalog.list-definitions';
import { legacyListRequest } from './legacy-list-request';

/** `GET /api/collections`: the brand's collections, paged by `page` and `limit` with `total`. */
export async function listCollections(
  deps: { uow: UnitOfWork<Pick<Repositories, 'collections'>> },
  request: ListRequest,
): Promise<{ page: Page<Collection>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(collectionListDefinition, legacyListRequest(request), (q) => repos.collections.list(request.brandId, q)),
  );
}
