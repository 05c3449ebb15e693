import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Customer, CustomerGroup, PaymentTerms } from './customer.entities';
import { customerListDefinition } from './customer.list-definitions';
import { settleAll } from '../shared/settle-all';

/**
 * A page of customers, the validated query behind it and the customer groups and payment terms the
 * page refers to (when included).
 */
export interface CustomerListResult {
  page: Page<Customer>;
  query: ListQuery;
  /** Filled only when the matching include was asked for. */
  customerGroups: Map<number, CustomerGroup>;
  paymentTerms: Map<number, PaymentTerms>;
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
    const groupIds = [...new Set(page.items.flatMap((c) => (c.customerGroupId !== null ? [c.customerGroupId] : [])))];
    const termsIds = [...new Set(page.items.flatMap((c) => (c.paymentTermsId !== null ? [c.paymentTermsId] : [])))];
    const [groups, terms] = await settleAll([
      query.includes.includes('customer_group') && groupIds.length
        ? repos.customerGroups.findByIds(request.brandId, groupIds)
        : [],
      query.includes.includes('payment_terms') && termsIds.length
        ? repos.paymentTerms.findByIds(request.brandId, termsIds)
        : [],
    ]);
    return {
      page,
      query,
      customerGroups: new Map(groups.map((g) => [g.id, g])),
      paymentTerms: new Map(terms.map((t) => [t.id, t])),
    };
  });
}
