import { DomainError, Supplier, SupplierRepositories, SupplierRepository } from '@brand/core';
import { Selectable } from 'kysely';
import { brandTableList, fetchListPage, ListColumns } from '../../listing/list-sql';
import { isForeignKeyViolation } from '../../storage-errors';
import { SuppliersTable } from '../../tables/partner.tables';
import { loadAddresses, replaceAddresses } from '../address-rows';
import { findDependents, SUPPLIER_DEPENDENTS } from '../dependents';
import { Executor, fromFlag, RepositoryFactories, toFlag } from '../executor';
import { adjustRowCount } from '../row-counts';

const rowToSupplier = (r: Selectable<SuppliersTable>): Supplier => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  supplierNumber: r.supplier_number,
  name: r.name,
  currency: r.currency,
  active: fromFlag(r.active),
  email: r.email,
  addresses: [],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SUPPLIER_COLUMNS: ListColumns = {
  id: { column: 'suppliers.id', type: 'integer' },
  supplier_number: { column: 'suppliers.supplier_number', type: 'string' },
  name: { column: 'suppliers.name', type: 'string' },
  currency: { column: 'suppliers.currency', type: 'string' },
  active: { column: 'suppliers.active', type: 'boolean' },
  email: { column: 'suppliers.email', type: 'string' },
  created_at: { column: 'suppliers.created_at', type: 'datetime' },
  updated_at: { column: 'suppliers.updated_at', type: 'datetime' },
};

const SUPPLIER_LIST = brandTableList('suppliers', SUPPLIER_COLUMNS, 'suppliers');

export function supplierRepository(executor: Executor): SupplierRepository {
  const { db } = executor;
  // Every call reads one brand's suppliers, so the first one names the brand of all.
  const withAddresses = async (suppliers: Supplier[]): Promise<Supplier[]> => {
    if (suppliers.length === 0) return suppliers;
    const addresses = await loadAddresses(
      executor,
      'supplier_addresses',
      suppliers[0]!.brandId,
      suppliers.map((s) => s.id),
    );
    return suppliers.map((s) => ({ ...s, addresses: addresses.get(s.id) ?? [] }));
  };
  return {
    async findByNumbers(brandId, numbers) {
      if (numbers.length === 0) return [];
      const rows = await db
        .selectFrom('suppliers')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('supplier_number', 'in', numbers)
        .orderBy('id')
        .execute();
      return withAddresses(rows.map(rowToSupplier));
    },
    async findById(brandId, id) {
      const row = await db
        .selectFrom('suppliers')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? (await withAddresses([rowToSupplier(row)]))[0]! : null;
    },
    async save(s) {
      const row = {
        id: s.id,
        brand_id: s.brandId,
        supplier_number: s.supplierNumber,
        name: s.name,
        currency: s.currency,
        active: toFlag(s.active),
        email: s.email,
        created_at: s.createdAt,
        updated_at: s.updatedAt,
      };
      // Insert-or-update in two steps, because only a real insert may move the brand's row count.
      const inserted = await db
        .insertInto('suppliers')
        .values(row)
        .onConflict((oc) => oc.columns(['brand_id', 'id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) await adjustRowCount(executor, s.brandId, 'suppliers', 1);
      else {
        await db
          .updateTable('suppliers')
          .set({
            // `PATCH /v10/suppliers/{id}` may renumber a supplier.
            supplier_number: row.supplier_number,
            name: row.name,
            currency: row.currency,
            active: row.active,
            email: row.email,
            updated_at: row.updated_at,
          })
          .where('id', '=', s.id)
          .where('brand_id', '=', s.brandId)
          .execute();
      }
      await replaceAddresses(executor, 'supplier_addresses', s.brandId, s.id, s.addresses);
    },
    async delete(brandId, id) {
      try {
        const deleted = await db
          .deleteFrom('suppliers')
          .where('brand_id', '=', brandId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) > 0) await adjustRowCount(executor, brandId, 'suppliers', -1);
      } catch (error) {
        if (isForeignKeyViolation(error))
          throw new DomainError('has_dependents', `supplier ${id} still has dependent data`);
        throw error;
      }
    },
    dependentsOf: (brandId, id) => findDependents(executor, SUPPLIER_DEPENDENTS, brandId, id),
    async list(brandId, query) {
      const { rows, total } = await fetchListPage(executor, SUPPLIER_LIST, brandId, query);
      const suppliers = rows.map(rowToSupplier);
      return { rows: query.includes.includes('addresses') ? await withAddresses(suppliers) : suppliers, total };
    },
  };
}

/** The suppliers module's repositories, as the unit of work makes them. */
export const supplierRepositoryFactories: RepositoryFactories<SupplierRepositories> = {
  suppliers: (executor) => supplierRepository(executor),
};
