import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Customer } from './customer.entities';
import { customerListDefinition } from './customer.list-definitions';
import { CustomerRelations, loadCustomerRelations } from './customer-relations';

/**
 * A page of customers, the validated query behind it and the customer groups and payment terms the
 * page refers to (when included).
 */
export interface CustomerListResult extends CustomerRelations {
  page: Page<Customer>;
  query: ListQuery;
}

/** Lists a brand's customers with filters, includes and offset or keyset pagination. */
export async function listCustomers(
  deps: { uow: UnitOfWork<Pick<Repositories, 'customerGroups' | 'customers' | 'paymentTerms'>> },
  request: ListRequest,
): Promise<CustomerListResult> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(customerListDefinition, request, (q) =>
      repos.customers.list(request.brandId, q),
    );
    return { page, query, ...(await loadCustomerRelations(repos, request.brandId, page.items, query.includes)) };
  });
}
