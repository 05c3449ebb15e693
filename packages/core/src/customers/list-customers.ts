import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Customer, CustomerGroup, PaymentTerms } from './customer.entities';
import { customerListDefinition } from './customer.list-definitions';
import { settleAll } from '../shared/settle-all';

/** The customer groups and payment terms that customers refer to, by id: filled only for the includes asked. */
export interface CustomerRelations {
  customerGroups: Map<number, CustomerGroup>;
  paymentTerms: Map<number, PaymentTerms>;
}

/**
 * A page of customers, the validated query behind it and the customer groups and payment terms the
 * page refers to (when included).
 */
export interface CustomerListResult extends CustomerRelations {
  page: Page<Customer>;
  query: ListQuery;
}

/**
 * Loads the customer groups and payment terms of `customers` that `includes` asks for
 * (`customer_group`, `payment_terms`), one query each; a list page and a single customer alike.
 */
export async function loadCustomerRelations(
  repos: Pick<Repositories, 'customerGroups' | 'paymentTerms'>,
  brandId: number,
  customers: readonly Customer[],
  includes: readonly string[],
): Promise<CustomerRelations> {
  const groupIds = [...new Set(customers.flatMap((c) => (c.customerGroupId !== null ? [c.customerGroupId] : [])))];
  const termsIds = [...new Set(customers.flatMap((c) => (c.paymentTermsId !== null ? [c.paymentTermsId] : [])))];
  const [groups, terms] = await settleAll([
    includes.includes('customer_group') && groupIds.length ? repos.customerGroups.findByIds(brandId, groupIds) : [],
    includes.includes('payment_terms') && termsIds.length ? repos.paymentTerms.findByIds(brandId, termsIds) : [],
  ]);
  return {
    customerGroups: new Map(groups.map((g) => [g.id, g])),
    paymentTerms: new Map(terms.map((t) => [t.id, t])),
  };
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
