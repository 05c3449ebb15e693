import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { CustomerGroup } from './customer.entities';
import { customerGroupListDefinition } from './customer.list-definitions';

/** Lists a brand's customer groups. */
export async function listCustomerGroups(
  deps: { uow: UnitOfWork<Pick<Repositories, 'customerGroups'>> },
  request: ListRequest,
): Promise<{ page: Page<CustomerGroup>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(customerGroupListDefinition, request, (q) => repos.customerGroups.list(request.brandId, q)),
  );
}
