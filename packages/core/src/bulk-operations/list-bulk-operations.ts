import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkOperation } from './bulk-operation.entities';
import { bulkOperationListDefinition } from './bulk-operation.list-definitions';

/** Lists a brand's bulk operations (`GET /v10/bulk-operations`). */
export async function listBulkOperations(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  request: ListRequest,
): Promise<{ page: Page<BulkOperation>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(bulkOperationListDefinition, request, (q) => repos.bulkOperations.list(request.brandId, q)),
  );
}
