import { Customer, CustomerGroup, PaymentTerms, discountPercentage } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  currency,
  dateTime,
  integer,
  nullable,
  optional,
  string,
} from '../http/wire-schema';
import { AddressSchema, presentAddress } from './address.presenter';
import { CustomerGroupSchema, presentCustomerGroup } from './customer-group.presenter';
import { PaymentTermsSchema, presentPaymentTerms } from './payment-terms.presenter';

export const CustomerSchema = component(
  'Customer',
  Type.Object({
    id: integer(),
    customer_number: string(),
    name: string(),
    currency: currency(),
    discount_percentage: Type.Number({ minimum: 0, maximum: 100, description: 'Percent, at most 2 decimals' }),
    active: boolean(),
    email: nullable(string()),
    telephone: nullable(string()),
    vat_number: nullable(string()),
    eori_number: nullable(string()),
    customer_group_id: nullable(integer()),
    payment_terms_id: nullable(integer()),
    created_at: dateTime(),
    updated_at: dateTime(),
    addresses: optional(arrayOf(AddressSchema, 'With includes[]=addresses')),
    customer_group: optional(nullable(CustomerGroupSchema, { description: 'With includes[]=customer_group' })),
    payment_terms: optional(nullable(PaymentTermsSchema, { description: 'With includes[]=payment_terms' })),
  }),
);
export type CustomerWire = Static<typeof CustomerSchema>;

/** What the request included, and the related records loaded for it. */
export interface CustomerIncludes {
  includes: readonly string[];
  customerGroups: ReadonlyMap<number, CustomerGroup>;
  paymentTerms: ReadonlyMap<number, PaymentTerms>;
}

/** A customer as the wire shows it; related objects appear only when included (null when the customer has none). */
export function presentCustomer(customer: Customer, related: CustomerIncludes): CustomerWire {
  const wire: CustomerWire = {
    id: customer.id,
    customer_number: customer.customerNumber,
    name: customer.name,
    currency: customer.currency,
    discount_percentage: discountPercentage(customer),
    active: customer.active,
    email: customer.email,
    telephone: customer.telephone,
    vat_number: customer.vatNumber,
    eori_number: customer.eoriNumber,
    customer_group_id: customer.customerGroupId,
    payment_terms_id: customer.paymentTermsId,
    created_at: customer.createdAt,
    updated_at: customer.updatedAt,
  };
  if (related.includes.includes('addresses')) wire.addresses = customer.addresses.map(presentAddress);
  if (related.includes.includes('customer_group')) {
    const group = customer.customerGroupId !== null ? related.customerGroups.get(customer.customerGroupId) : undefined;
    wire.customer_group = group ? presentCustomerGroup(group) : null;
  }
  if (related.includes.includes('payment_terms')) {
    const terms = customer.paymentTermsId !== null ? related.paymentTerms.get(customer.paymentTermsId) : undefined;
    wire.payment_terms = terms ? presentPaymentTerms(terms) : null;
  }
  return wire;
}

/**
 * A customer as `GET /v10/customers/{id}` shows it without includes: what a create or a change
 * answers and what the customer events carry.
 */
export function presentCustomerWithoutIncludes(customer: Customer): CustomerWire {
  return presentCustomer(customer, { includes: [], customerGroups: new Map(), paymentTerms: new Map() });
}
