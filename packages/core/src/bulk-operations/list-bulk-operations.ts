import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkOperation, BulkOperationType } from './bulk-operation.entities';
import { bulkOperationListDefinition } from './bulk-operation.list-definitions';

/**
 * Lists a brand's bulk operations (`GET /v10/bulk-operations`) of the `types` the caller may see
 * (an operation is read with the scope of the resource it syncs).
 */
export async function listBulkOperations(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  request: ListRequest & { types: readonly BulkOperationType[] },
): Promise<{ page: Page<BulkOperation>; query: ListQuery }> {
  const { types, ...list } = request;
  const visible = (query: ListQuery): ListQuery => ({
    ...query,
    filterGroups: [
      ...query.filterGroups,
      { or: false, filters: [{ key: 'type', operator: 'in', value: [...types], not: false }] },
    ],
  });
  return deps.uow.read((repos) =>
    runList(bulkOperationListDefinition, list, (q) => repos.bulkOperations.list(request.brandId, visible(q))),
  );
}
