// The customer groups and payment terms a customer read includes, loaded for a whole page at once:
// shared by the customer list and the single customer read.
import { Repositories } from '../shared/unit-of-work.ports';
import { settleAll } from '../shared/settle-all';
import { Customer, CustomerGroup, PaymentTerms } from './customer.entities';

/** The customer groups and payment terms that customers refer to, by id: filled only for the includes asked. */
export interface CustomerRelations {
  customerGroups: Map<number, CustomerGroup>;
  paymentTerms: Map<number, PaymentTerms>;
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
