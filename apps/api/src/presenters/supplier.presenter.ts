import { Supplier } from '@brand/core';
import { AddressWire, presentAddress } from './address.presenter';

export interface SupplierWire {
  id: number;
  supplier_number: string;
  name: string;
  currency: string;
  active: boolean;
  email: string | null;
  created_at: string;
  updated_at: string;
  addresses?: AddressWire[];
}

export function presentSupplier(supplier: Supplier, includes: readonly string[]): SupplierWire {
  const wire: SupplierWire = {
    id: supplier.id,
    supplier_number: supplier.supplierNumber,
    name: supplier.name,
    currency: supplier.currency,
    active: supplier.active,
    email: supplier.email,
    created_at: supplier.createdAt,
    updated_at: supplier.updatedAt,
  };
  if (includes.includes('addresses')) wire.addresses = supplier.addresses.map(presentAddress);
  return wire;
}
