import { AddressSync, applyAddressSync, checkAddressSync } from '../addresses/address';
import { isCurrencyCode } from '../shared/codes';
import { PERCENT_SCALE, parseDecimal } from '../shared/decimal';
import { DomainError, ViolationList } from '../shared/errors';
import { IdOrCode, resolveReferences } from '../shared/reference';
import { numberNewAddresses, sameData } from '../shared/sync-outcome';
import { Repositories } from '../shared/unit-of-work.ports';
import { Customer, CustomerGroup, PaymentTerms } from './customer.entities';

// The rules of a customer's fields, in one place for every way a customer is written: the sync
// (`syncCustomers`), `createCustomer` and `updateCustomer`. A second copy would drift, and the
// same body would then be accepted by one endpoint and refused by another.

/**
 * The fields of a customer that a sync item, a create and a change may set: all but the customer
 * number, already of the right JSON types. A field left out keeps its value.
 */
export interface CustomerFields {
  name?: string;
  currency?: string;
  /** 0 to 100, at most 2 decimals. */
  discountPercentage?: number;
  active?: boolean;
  email?: string | null;
  telephone?: string | null;
  vatNumber?: string | null;
  eoriNumber?: string | null;
  /** `null` clears the terms. */
  paymentTerms?: IdOrCode | null;
  /** `null` removes the customer from its group. */
  customerGroup?: IdOrCode | null;
  addresses?: AddressSync;
}

/** Collects what is wrong with a customer number, under `pointer` (the item: `/customers/3`, or `` for a body). */
export function checkCustomerNumber(customerNumber: string, pointer: string, violations: ViolationList): void {
  if (customerNumber.trim() === '') violations.add(`${pointer}/customer_number`, 'must not be empty');
}

/**
 * Collects what is wrong with the fields sent for a customer, under `pointer`. A new customer
 * needs a name and a currency; a name, once sent, must not be blank.
 */
export function checkCustomerFields(
  fields: CustomerFields,
  isNew: boolean,
  pointer: string,
  violations: ViolationList,
): void {
  if (isNew && (fields.name === undefined || fields.name.trim() === ''))
    violations.add(`${pointer}/name`, 'is required for a new customer');
  else if (fields.name !== undefined && fields.name.trim() === '')
    violations.add(`${pointer}/name`, 'must not be empty');
  if (isNew && fields.currency === undefined) violations.add(`${pointer}/currency`, 'is required for a new customer');
  if (fields.currency !== undefined && !isCurrencyCode(fields.currency))
    violations.add(`${pointer}/currency`, 'must be a 3-letter ISO 4217 code such as EUR');
  if (fields.discountPercentage !== undefined) {
    const basisPoints = parseDecimal(fields.discountPercentage, PERCENT_SCALE);
    if (basisPoints === null || basisPoints < 0 || basisPoints > 100_00)
      violations.add(`${pointer}/discount_percentage`, 'must be from 0 to 100 with at most 2 decimals');
  }
  if (fields.addresses) checkAddressSync(fields.addresses, pointer, violations);
}

/** The payment terms and customer groups that customers' fields name, resolved. */
export interface CustomerReferences {
  terms: Map<IdOrCode, PaymentTerms>;
  groups: Map<IdOrCode, CustomerGroup>;
}

/**
 * Resolves the payment terms and customer groups the fields of several customers name, in two
 * queries each; a reference that does not exist for the brand is reported at
 * `<pointer>/payment_terms` or `<pointer>/customer_group`.
 */
export async function resolveCustomerReferences(
  tx: Pick<Repositories, 'customerGroups' | 'paymentTerms'>,
  brandId: number,
  items: readonly { fields: CustomerFields; pointer: string }[],
  violations: ViolationList,
): Promise<CustomerReferences> {
  const termsRefs = items.flatMap(({ fields, pointer }) =>
    fields.paymentTerms ? [{ ref: fields.paymentTerms, pointer: `${pointer}/payment_terms` }] : [],
  );
  const groupRefs = items.flatMap(({ fields, pointer }) =>
    fields.customerGroup ? [{ ref: fields.customerGroup, pointer: `${pointer}/customer_group` }] : [],
  );
  const terms = await resolveReferences(
    termsRefs,
    'payment terms',
    {
      byIds: (ids) => tx.paymentTerms.findByIds(brandId, ids),
      byCodes: (codes) => tx.paymentTerms.findByCodes(brandId, codes),
    },
    violations,
  );
  const groups = await resolveReferences(
    groupRefs,
    'customer group',
    {
      byIds: (ids) => tx.customerGroups.findByIds(brandId, ids),
      byCodes: (codes) => tx.customerGroups.findByCodes(brandId, codes),
    },
    violations,
  );
  return { terms, groups };
}

/**
 * Refuses a customer number another customer of the brand holds (`duplicate`, naming
 * `/customer_number`). `self` is the customer being changed, which may keep its own number.
 */
export async function ensureCustomerNumberFree(
  tx: Pick<Repositories, 'customers'>,
  brandId: number,
  customerNumber: string,
  self: number | null = null,
): Promise<void> {
  const [holder] = await tx.customers.findByNumbers(brandId, [customerNumber]);
  if (holder && holder.id !== self)
    throw new DomainError('duplicate', `customer number ${customerNumber} is taken by customer ${holder.id}`, {
      violations: [
        { pointer: '/customer_number', detail: `customer_number ${customerNumber} is taken by customer ${holder.id}` },
      ],
      data: { customer_id: holder.id },
    });
}

/** A customer before any field is applied: what a create starts from. */
export function blankCustomer(id: number, brandId: number, customerNumber: string, now: string): Customer {
  return {
    id,
    brandId,
    customerNumber,
    name: '',
    currency: '',
    discountBasisPoints: 0,
    active: true,
    customerGroupId: null,
    paymentTermsId: null,
    email: null,
    telephone: null,
    vatNumber: null,
    eoriNumber: null,
    addresses: [],
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The customer with the checked fields applied (references resolved by
 * `resolveCustomerReferences`); new addresses get their ids. `updatedAt` is left as it was: the
 * caller sets it only when something changed (`customerChanged`).
 */
export async function applyCustomerFields(
  tx: Pick<Repositories, 'ids'>,
  base: Customer,
  fields: CustomerFields,
  references: CustomerReferences,
): Promise<Customer> {
  return {
    ...base,
    name: fields.name?.trim() ?? base.name,
    currency: fields.currency ?? base.currency,
    discountBasisPoints:
      fields.discountPercentage !== undefined
        ? parseDecimal(fields.discountPercentage, PERCENT_SCALE)!
        : base.discountBasisPoints,
    active: fields.active ?? base.active,
    email: fields.email !== undefined ? fields.email : base.email,
    telephone: fields.telephone !== undefined ? fields.telephone : base.telephone,
    vatNumber: fields.vatNumber !== undefined ? fields.vatNumber : base.vatNumber,
    eoriNumber: fields.eoriNumber !== undefined ? fields.eoriNumber : base.eoriNumber,
    paymentTermsId:
      fields.paymentTerms === null
        ? null
        : fields.paymentTerms
          ? references.terms.get(fields.paymentTerms)!.id
          : base.paymentTermsId,
    customerGroupId:
      fields.customerGroup === null
        ? null
        : fields.customerGroup
          ? references.groups.get(fields.customerGroup)!.id
          : base.customerGroupId,
    addresses: fields.addresses
      ? await numberNewAddresses(tx.ids, 'customer_addresses', applyAddressSync(base.addresses, fields.addresses))
      : base.addresses,
  };
}

/** Whether applying fields changed anything a reader sees (the time of the last change aside). */
export function customerChanged(next: Customer, current: Customer): boolean {
  return !sameData({ ...next, updatedAt: '' }, { ...current, updatedAt: '' });
}
