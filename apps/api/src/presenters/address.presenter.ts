import { Address } from '@brand/core';
import { Static, Type, component, country, integer, nullable, string } from '../http/wire-schema';

export const AddressSchema = component(
  'Address',
  Type.Object({
    id: integer(),
    title: string(),
    name: string(),
    address: string(),
    address_2: nullable(string()),
    zip: string(),
    city: string(),
    region: nullable(string()),
    country: country(),
    remote_erp_id: nullable(string()),
  }),
);
export type AddressWire = Static<typeof AddressSchema>;

export function presentAddress(address: Address): AddressWire {
  return {
    id: address.id,
    title: address.title,
    name: address.name,
    address: address.address,
    address_2: address.address2,
    zip: address.zip,
    city: address.city,
    region: address.region,
    country: address.country,
    remote_erp_id: address.remoteErpId,
  };
}
