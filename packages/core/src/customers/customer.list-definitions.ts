import { formatDecimal } from '../shared/decimal';
import { ListDefinition } from '../listing/list-query';
import { Customer, CustomerGroup, PaymentTerms } from './customer.entities';

/**
 * The customer list (`listCustomers`): its filterable fields and its includes (addresses, customer
 * group, payment terms).
 */
export const customerListDefinition: ListDefinition<Customer> = {
  resource: 'customers',
  fields: {
    id: { type: 'integer', get: (c) => c.id },
    customer_number: { type: 'string', get: (c) => c.customerNumber },
    name: { type: 'string', get: (c) => c.name },
    currency: { type: 'string', get: (c) => c.currency },
    active: { type: 'boolean', get: (c) => c.active },
    email: { type: 'string', get: (c) => c.email },
    discount_percentage: { type: 'decimal', scale: 2, get: (c) => c.discountBasisPoints },
    customer_group_id: { type: 'integer', get: (c) => c.customerGroupId },
    payment_terms_id: { type: 'integer', get: (c) => c.paymentTermsId },
    created_at: { type: 'datetime', get: (c) => c.createdAt },
    updated_at: { type: 'datetime', get: (c) => c.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: [
    'id',
    'customer_number',
    'name',
    'currency',
    'active',
    'email',
    'discount_percentage',
    'customer_group_id',
    'payment_terms_id',
    'created_at',
    'updated_at',
  ],
  includes: ['addresses', 'customer_group', 'payment_terms'],
};

/** The customer group list (`listCustomerGroups`). */
export const customerGroupListDefinition: ListDefinition<CustomerGroup> = {
  resource: 'customer_groups',
  fields: {
    id: { type: 'integer', get: (g) => g.id },
    code: { type: 'string', get: (g) => g.code },
    name: { type: 'string', get: (g) => g.name },
    created_at: { type: 'datetime', get: (g) => g.createdAt },
    updated_at: { type: 'datetime', get: (g) => g.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'code', 'name', 'created_at', 'updated_at'],
  includes: [],
};

/** The payment terms list (`listPaymentTerms`). */
export const paymentTermsListDefinition: ListDefinition<PaymentTerms> = {
  resource: 'payment_terms',
  fields: {
    id: { type: 'integer', get: (t) => t.id },
    code: { type: 'string', get: (t) => t.code },
    name: { type: 'string', get: (t) => t.name },
    days: { type: 'integer', get: (t) => t.days },
    created_at: { type: 'datetime', get: (t) => t.createdAt },
    updated_at: { type: 'datetime', get: (t) => t.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'code', 'name', 'days', 'created_at', 'updated_at'],
  includes: [],
};

/** The discount as the wire shows it (percent, 2 decimals). */
export function discountPercentage(customer: Customer): number {
  return formatDecimal(customer.discountBasisPoints, 2);
}
