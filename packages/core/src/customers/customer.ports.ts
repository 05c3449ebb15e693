import { ListQuery, ListRows } from '../listing/list-query';
import { Customer, CustomerGroup, PaymentTerms } from './customer.entities';

/**
 * Customers with their addresses, always scoped by brand: a customer of another brand is
 * invisible, exactly as a missing one.
 */
export interface CustomerRepository {
  findByNumbers(brandId: number, customerNumbers: string[]): Promise<Customer[]>;
  findById(brandId: number, id: number): Promise<Customer | null>;
  /**
   * Inserts or updates the customer (every field but its brand and creation time, the number
   * included) and makes its stored addresses equal to `customer.addresses`. Numbers are unique per
   * brand: use cases check before saving, and a number a concurrent transaction took meanwhile is
   * a write conflict, which the unit of work retries (the check then finds it taken).
   */
  save(customer: Customer): Promise<void>;
  delete(brandId: number, id: number): Promise<void>;
  /** Names of the kinds of data that still refer to the customer (orders, returns …); empty when it may be deleted. */
  dependentsOf(brandId: number, id: number): Promise<string[]>;
  /** Runs a validated list query; loads addresses only when `includes` asks for them. */
  list(brandId: number, query: ListQuery): Promise<ListRows<Customer>>;
}

/** Customer groups of a brand, found by id or code. */
export interface CustomerGroupRepository {
  insert(group: CustomerGroup): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<CustomerGroup[]>;
  findByCodes(brandId: number, codes: string[]): Promise<CustomerGroup[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<CustomerGroup>>;
}

/** Payment terms of a brand, found by id or code. */
export interface PaymentTermsRepository {
  insert(terms: PaymentTerms): Promise<void>;
  findByIds(brandId: number, ids: number[]): Promise<PaymentTerms[]>;
  findByCodes(brandId: number, codes: string[]): Promise<PaymentTerms[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<PaymentTerms>>;
}

/** The customers module's repositories; the declaration below adds them to `Repositories`. */
export interface CustomerRepositories {
  customers: CustomerRepository;
  customerGroups: CustomerGroupRepository;
  paymentTerms: PaymentTermsRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends CustomerRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The customers module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    customers: true;
    customer_addresses: true;
    customer_groups: true;
    payment_terms: true;
  }
}
