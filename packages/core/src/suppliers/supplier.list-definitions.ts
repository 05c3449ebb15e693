import { ListDefinition } from '../listing/list-query';
import { Supplier } from './supplier.entities';

/** The supplier list (`listSuppliers`): its filterable fields and its includes. */
export const supplierListDefinition: ListDefinition<Supplier> = {
  resource: 'suppliers',
  fields: {
    id: { type: 'integer', get: (s) => s.id },
    supplier_number: { type: 'string', get: (s) => s.supplierNumber },
    name: { type: 'string', get: (s) => s.name },
    currency: { type: 'string', get: (s) => s.currency },
    active: { type: 'boolean', get: (s) => s.active },
    email: { type: 'string', get: (s) => s.email },
    created_at: { type: 'datetime', get: (s) => s.createdAt },
    updated_at: { type: 'datetime', get: (s) => s.updatedAt },
  },
  sortKeys: ['id'],
  filterKeys: ['id', 'supplier_number', 'name', 'currency', 'active', 'email', 'created_at', 'updated_at'],
  includes: ['addresses'],
};
