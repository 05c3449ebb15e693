import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Supplier } from './supplier.entities';
import { supplierListDefinition } from './supplier.list-definitions';

/** Lists a brand's suppliers. */
export async function listSuppliers(
  deps: { uow: UnitOfWork<Pick<Repositories, 'suppliers'>> },
  request: ListRequest,
): Promise<{ page: Page<Supplier>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(supplierListDefinition, request, (q) => repos.suppliers.list(request.brandId, q)),
  );
}
