import { Type } from 'class-transformer';
import { IsArray, IsIn, IsOptional, IsString, Matches, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { AddressSync, AddressSyncKey, AddressSyncMode } from '@brand/core';
import { MayBeOmitted } from './decorators';

export const ADDRESS_SYNC_MODES: readonly AddressSyncMode[] = ['replace', 'append'];
export const ADDRESS_SYNC_KEYS: readonly AddressSyncKey[] = ['address_title', 'remote_erp_id'];

@JSONSchema({ title: 'Address', description: 'A postal address of a customer or supplier, as sent to a sync.' })
export class AddressDto {
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Internal label; identifies the address when addresses_sync_key is address_title.' })
  title!: string;

  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Top line, typically the receiving party.' })
  name!: string;

  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Street with house number, floor.' })
  address!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  address_2?: string | null;

  @IsString()
  @MaxLength(32)
  zip!: string;

  @IsString()
  @MaxLength(255)
  city!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  region?: string | null;

  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be a 2-letter ISO 3166-1 code in capitals, such as NL' })
  country!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  @JSONSchema({
    description: "The ERP's own id of the address; identifies it when addresses_sync_key is remote_erp_id.",
  })
  remote_erp_id?: string | null;
}

/**
 * The address part of a customer or supplier sync item. Mode and key are required once
 * `addresses` is sent, and mean nothing without it.
 */
export abstract class WithAddressesDto {
  @ValidateIf((item: WithAddressesDto) => item.addresses !== undefined && item.addresses !== null)
  @IsIn(ADDRESS_SYNC_MODES, {
    message: `addresses_sync_mode is required with addresses and must be one of ${ADDRESS_SYNC_MODES.join(', ')}`,
  })
  addresses_sync_mode?: AddressSyncMode;

  @ValidateIf((item: WithAddressesDto) => item.addresses !== undefined && item.addresses !== null)
  @IsIn(ADDRESS_SYNC_KEYS, {
    message: `addresses_sync_key is required with addresses and must be one of ${ADDRESS_SYNC_KEYS.join(', ')}`,
  })
  addresses_sync_key?: AddressSyncKey;

  @MayBeOmitted()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AddressDto)
  addresses?: AddressDto[];
}

/** The core's address sync, or undefined when the item sent no addresses. */
export function toAddressSync(item: WithAddressesDto): AddressSync | undefined {
  if (!item.addresses || !item.addresses_sync_mode || !item.addresses_sync_key) return undefined;
  return {
    mode: item.addresses_sync_mode,
    key: item.addresses_sync_key,
    addresses: item.addresses.map((a) => ({
      title: a.title,
      name: a.name,
      address: a.address,
      address2: a.address_2 ?? null,
      zip: a.zip,
      city: a.city,
      region: a.region ?? null,
      country: a.country,
      remoteErpId: a.remote_erp_id ?? null,
    })),
  };
}
