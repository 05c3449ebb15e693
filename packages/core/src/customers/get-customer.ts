import { validateListQuery } from '../listing/validate-list-query';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Customer } from './customer.entities';
import { customerListDefinition } from './customer.list-definitions';
import { CustomerRelations, loadCustomerRelations } from './customer-relations';

/** What `getCustomer` returns: the customer, the includes it was read with and the records they ask for. */
export interface CustomerDetail extends CustomerRelations {
  customer: Customer;
  includes: string[];
}

/**
 * One customer of the brand (`GET /v10/customers/{id}`) with the includes of the customer list
 * (`addresses`, `customer_group`, `payment_terms`). A customer of another brand is `not_found`,
 * exactly like a missing one; an unknown include is `invalid_list_query`.
 *
 * @example
 * const { customer, customerGroups } = await getCustomer({ uow }, { brandId, id: 42, includes: ['customer_group'] });
 */
export async function getCustomer(
  deps: { uow: UnitOfWork<Pick<Repositories, 'customerGroups' | 'customers' | 'paymentTerms'>> },
  input: { brandId: number; id: number; includes?: unknown },
): Promise<CustomerDetail> {
  const { includes } = validateListQuery(customerListDefinition, { includes: input.includes });
  return deps.uow.read(async (repos) => {
    const customer = await repos.customers.findById(input.brandId, input.id);
    if (!customer) throw DomainError.notFound('customer', input.id);
    return { customer, includes, ...(await loadCustomerRelations(repos, input.brandId, [customer], includes)) };
  });
}
