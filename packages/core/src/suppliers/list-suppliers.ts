import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { UnitOfWork } from '../shared/unit-of-work.port';
import { Supplier } from './supplier.entities';
import { supplierListDefinition } from './supplier.list-definition';

/** Lists a brand's suppliers. */
export async function listSuppliers(
  deps: { uow: UnitOfWork },
  request: ListRequest,
): Promise<{ page: Page<Supplier>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(supplierListDefinition, request, (q) => repos.suppliers.list(request.brandId, q)),
  );
}
