import { listInMemory } from '../listing/in-memory-list';
import { Customer, CustomerGroup, PaymentTerms } from '../customers/customer.entities';
import {
  customerGroupListDefinition,
  customerListDefinition,
  paymentTermsListDefinition,
} from '../customers/customer.list-definitions';
import { CustomerRepositories } from '../customers/customer.ports';
import { Supplier } from '../suppliers/supplier.entities';
import { supplierListDefinition } from '../suppliers/supplier.list-definitions';
import { SupplierRepositories } from '../suppliers/supplier.ports';
import { ReferringTables, customerDependents, refuseIfReferred, supplierDependents } from './in-memory-dependents';
import { InMemoryFactories } from './in-memory-factories';
import { refuseCrossBrandReference } from './in-memory-references';

/** Customers, their groups and payment terms, and suppliers in memory. */
export interface PartnersState {
  customers: Customer[];
  customerGroups: CustomerGroup[];
  paymentTerms: PaymentTerms[];
  suppliers: Supplier[];
}

export function emptyPartnersState(): PartnersState {
  return { customers: [], customerGroups: [], paymentTerms: [], suppliers: [] };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Inserts or replaces by id, keeping a copy so callers cannot mutate stored state. */
function put<T extends { id: number }>(rows: T[], row: T): void {
  const index = rows.findIndex((r) => r.id === row.id);
  if (index >= 0) rows[index] = clone(row);
  else rows.push(clone(row));
}

/**
 * The customers module's repositories in memory. Deleting a customer that documents still refer
 * to is refused, as the SQL adapters' foreign keys refuse it.
 */
export const inMemoryCustomerFactories: InMemoryFactories<CustomerRepositories, PartnersState & ReferringTables> = {
  customers: (s) => ({
    async findByNumbers(brandId, numbers) {
      return clone(s().customers.filter((c) => c.brandId === brandId && numbers.includes(c.customerNumber)));
    },
    async findById(brandId, id) {
      return clone(s().customers.find((c) => c.brandId === brandId && c.id === id) ?? null);
    },
    async save(customer) {
      refuseCrossBrandReference('customer group', customer.brandId, customer.customerGroupId, s().customerGroups);
      refuseCrossBrandReference('payment terms', customer.brandId, customer.paymentTermsId, s().paymentTerms);
      put(s().customers, customer);
    },
    async delete(brandId, id) {
      refuseIfReferred(customerDependents(s(), brandId, id), `customer ${id}`);
      s().customers = s().customers.filter((c) => !(c.brandId === brandId && c.id === id));
    },
    async dependentsOf(brandId, id) {
      return customerDependents(s(), brandId, id);
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        customerListDefinition,
        query,
        s().customers.filter((c) => c.brandId === brandId),
      );
      const withAddresses = query.includes.includes('addresses');
      return { rows: clone(rows).map((c) => (withAddresses ? c : { ...c, addresses: [] })), total };
    },
  }),
  customerGroups: (s) => ({
    async insert(group) {
      put(s().customerGroups, group);
    },
    async findByIds(brandId, ids) {
      return clone(s().customerGroups.filter((g) => g.brandId === brandId && ids.includes(g.id)));
    },
    async findByCodes(brandId, codes) {
      return clone(s().customerGroups.filter((g) => g.brandId === brandId && codes.includes(g.code)));
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        customerGroupListDefinition,
        query,
        s().customerGroups.filter((g) => g.brandId === brandId),
      );
      return { rows: clone(rows), total };
    },
  }),
  paymentTerms: (s) => ({
    async insert(terms) {
      put(s().paymentTerms, terms);
    },
    async findByIds(brandId, ids) {
      return clone(s().paymentTerms.filter((t) => t.brandId === brandId && ids.includes(t.id)));
    },
    async findByCodes(brandId, codes) {
      return clone(s().paymentTerms.filter((t) => t.brandId === brandId && codes.includes(t.code)));
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        paymentTermsListDefinition,
        query,
        s().paymentTerms.filter((t) => t.brandId === brandId),
      );
      return { rows: clone(rows), total };
    },
  }),
};

/** The suppliers module's repository in memory; a supplier that products or production orders name stays. */
export const inMemorySupplierFactories: InMemoryFactories<SupplierRepositories, PartnersState & ReferringTables> = {
  suppliers: (s) => ({
    async findByNumbers(brandId, numbers) {
      return clone(s().suppliers.filter((x) => x.brandId === brandId && numbers.includes(x.supplierNumber)));
    },
    async findById(brandId, id) {
      return clone(s().suppliers.find((x) => x.brandId === brandId && x.id === id) ?? null);
    },
    async save(supplier) {
      put(s().suppliers, supplier);
    },
    async delete(brandId, id) {
      refuseIfReferred(supplierDependents(s(), brandId, id), `supplier ${id}`);
      s().suppliers = s().suppliers.filter((x) => !(x.brandId === brandId && x.id === id));
    },
    async dependentsOf(brandId, id) {
      return supplierDependents(s(), brandId, id);
    },
    async list(brandId, query) {
      const { rows, total } = listInMemory(
        supplierListDefinition,
        query,
        s().suppliers.filter((x) => x.brandId === brandId),
      );
      const withAddresses = query.includes.includes('addresses');
      return { rows: clone(rows).map((x) => (withAddresses ? x : { ...x, addresses: [] })), total };
    },
  }),
};
