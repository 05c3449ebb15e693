import { Address } from '@brand/core';

export interface AddressWire {
  id: number;
  title: string;
  name: string;
  address: string;
  address_2: string | null;
  zip: string;
  city: string;
  region: string | null;
  country: string;
  remote_erp_id: string | null;
}

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
