import { ListQuery, ListRows } from '../listing/list-query';
import { Supplier } from './supplier.entities';

/** Suppliers with their addresses, scoped by brand. */
export interface SupplierRepository {
  findByNumbers(brandId: number, supplierNumbers: string[]): Promise<Supplier[]>;
  findById(brandId: number, id: number): Promise<Supplier | null>;
  /**
   * Inserts or updates the supplier (every field but its brand and creation time, the number
   * included) and makes its stored addresses equal to `supplier.addresses`. Numbers are unique per
   * brand: use cases check before saving, and a number a concurrent transaction took meanwhile is
   * a write conflict, which the unit of work retries (the check then finds it taken).
   */
  save(supplier: Supplier): Promise<void>;
  delete(brandId: number, id: number): Promise<void>;
  /** Names of the kinds of data that still refer to the supplier (production orders, product links …). */
  dependentsOf(brandId: number, id: number): Promise<string[]>;
  list(brandId: number, query: ListQuery): Promise<ListRows<Supplier>>;
}

/** The suppliers module's repositories; the declaration below adds them to `Repositories`. */
export interface SupplierRepositories {
  suppliers: SupplierRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends SupplierRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The suppliers module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    suppliers: true;
    supplier_addresses: true;
  }
}
