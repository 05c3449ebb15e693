import { Customer, CustomerGroup, PaymentTerms, discountPercentage } from '@brand/core';
import { AddressWire, presentAddress } from './address.presenter';
import { CustomerGroupWire, presentCustomerGroup } from './customer-group.presenter';
import { PaymentTermsWire, presentPaymentTerms } from './payment-terms.presenter';

export interface CustomerWire {
  id: number;
  customer_number: string;
  name: string;
  currency: string;
  discount_percentage: number;
  active: boolean;
  email: string | null;
  telephone: string | null;
  vat_number: string | null;
  eori_number: string | null;
  customer_group_id: number | null;
  payment_terms_id: number | null;
  created_at: string;
  updated_at: string;
  addresses?: AddressWire[];
  customer_group?: CustomerGroupWire | null;
  payment_terms?: PaymentTermsWire | null;
}

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
