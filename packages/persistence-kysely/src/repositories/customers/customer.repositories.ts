import { Customer, CustomerRepositories, CustomerRepository, DomainError } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { isForeignKeyViolation } from '../../storage-errors';
import { CustomersTable } from '../../tables/partner.tables';
import { loadAddresses, replaceAddresses } from '../address-rows';
import { CUSTOMER_DEPENDENTS, findDependents } from '../dependents';
import { Executor, fromFlag, RepositoryFactories, toFlag } from '../executor';
import { adjustRowCount } from '../row-counts';
import { customerGroupRepository } from './customer-group.repositories';
import { paymentTermsRepository } from './payment-terms.repositories';
import { KeptStatement, runKept } from '../kept-statements';

const rowToCustomer = (r: Selectable<CustomersTable>): Customer => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  customerNumber: r.customer_number,
  name: r.name,
  currency: r.currency,
  discountBasisPoints: Number(r.discount_basis_points),
  active: fromFlag(r.active),
  customerGroupId: r.customer_group_id === null ? null : Number(r.customer_group_id),
  paymentTermsId: r.payment_terms_id === null ? null : Number(r.payment_terms_id),
  email: r.email,
  telephone: r.telephone,
  vatNumber: r.vat_number,
  eoriNumber: r.eori_number,
  addresses: [],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const customerToRow = (c: Customer): Selectable<CustomersTable> => ({
  id: c.id,
  brand_id: c.brandId,
  customer_number: c.customerNumber,
  name: c.name,
  currency: c.currency,
  discount_basis_points: c.discountBasisPoints,
  active: toFlag(c.active),
  customer_group_id: c.customerGroupId,
  payment_terms_id: c.paymentTermsId,
  email: c.email,
  telephone: c.telephone,
  vat_number: c.vatNumber,
  eori_number: c.eoriNumber,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/** The list keys of `customerListDefinition`, mapped to columns. */
const CUSTOMER_COLUMNS: ListColumns = {
  id: { column: 'customers.id', type: 'integer' },
  customer_number: { column: 'customers.customer_number', type: 'string' },
  name: { column: 'customers.name', type: 'string' },
  currency: { column: 'customers.currency', type: 'string' },
  active: { column: 'customers.active', type: 'boolean' },
  email: { column: 'customers.email', type: 'string' },
  discount_percentage: { column: 'customers.discount_basis_points', type: 'decimal' },
  customer_group_id: { column: 'customers.customer_group_id', type: 'integer' },
  payment_terms_id: { column: 'customers.payment_terms_id', type: 'integer' },
  created_at: { column: 'customers.created_at', type: 'datetime' },
  updated_at: { column: 'customers.updated_at', type: 'datetime' },
};

const CUSTOMER_LIST = brandTableList('customers', CUSTOMER_COLUMNS, 'customers');

const CUSTOMERS_BY_NUMBER: KeptStatement<Selectable<CustomersTable>> = (db, [brandId, ...numbers]) =>
  db
    .selectFrom('customers')
    .selectAll()
    .where('brand_id', '=', brandId)
    .where('customer_number', 'in', numbers)
    .orderBy('id');

export function customerRepository(executor: Executor): CustomerRepository {
  const { db } = executor;
  // Every call reads one brand's customers, so the first one names the brand of all.
  const withAddresses = async (customers: Customer[]): Promise<Customer[]> => {
    if (customers.length === 0) return customers;
    const addresses = await loadAddresses(
      executor,
      'customer_addresses',
      customers[0]!.brandId,
      customers.map((c) => c.id),
    );
    return customers.map((c) => ({ ...c, addresses: addresses.get(c.id) ?? [] }));
  };
  return {
    async findByNumbers(brandId, numbers) {
      if (numbers.length === 0) return [];
      const rows = await runKept(executor, CUSTOMERS_BY_NUMBER, [brandId, ...numbers]);
      return withAddresses(rows.map(rowToCustomer));
    },
    async findById(brandId, id) {
      const row = await db
        .selectFrom('customers')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? (await withAddresses([rowToCustomer(row)]))[0]! : null;
    },
    async save(customer) {
      const row = customerToRow(customer);
      // The number is among the changes: `PATCH /v10/customers/{id}` may renumber a customer.
      const { id: _id, brand_id: _brand, created_at: _created, ...changes } = row;
      // Insert-or-update in two steps, because only a real insert may move the brand's row count.
      const inserted = await db
        .insertInto('customers')
        .values(row)
        .onConflict((oc) => oc.columns(['brand_id', 'id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0)
        await adjustRowCount(executor, customer.brandId, 'customers', 1);
      else
        await db
          .updateTable('customers')
          .set(changes)
          .where('id', '=', customer.id)
          .where('brand_id', '=', customer.brandId)
          .execute();
      await replaceAddresses(executor, 'customer_addresses', customer.brandId, customer.id, customer.addresses);
    },
    async delete(brandId, id) {
      try {
        const deleted = await db
          .deleteFrom('customers')
          .where('brand_id', '=', brandId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) > 0) await adjustRowCount(executor, brandId, 'customers', -1);
      } catch (error) {
        if (isForeignKeyViolation(error))
          throw new DomainError('has_dependents', `customer ${id} still has dependent data`);
        throw error;
      }
    },
    dependentsOf: (brandId, id) => findDependents(executor, CUSTOMER_DEPENDENTS, brandId, id),
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, CUSTOMER_LIST, brandId, query);
      const customers = rows.map(rowToCustomer);
      return { rows: query.includes.includes('addresses') ? await withAddresses(customers) : customers, total };
    },
  };
}

/** The customers module's repositories, as the unit of work makes them. */
export const customerRepositoryFactories: RepositoryFactories<CustomerRepositories> = {
  customers: (executor) => customerRepository(executor),
  customerGroups: (executor) => customerGroupRepository(executor),
  paymentTerms: (executor) => paymentTermsRepository(executor),
};
