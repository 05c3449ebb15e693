import { Supplier } from '@brand/core';
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

export const SupplierSchema = component(
  'Supplier',
  Type.Object({
    id: integer(),
    supplier_number: string(),
    name: string(),
    currency: currency(),
    active: boolean(),
    email: nullable(string()),
    created_at: dateTime(),
    updated_at: dateTime(),
    addresses: optional(arrayOf(AddressSchema, 'With includes[]=addresses')),
  }),
);
export type SupplierWire = Static<typeof SupplierSchema>;

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
