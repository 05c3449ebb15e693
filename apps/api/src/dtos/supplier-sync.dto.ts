import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { SupplierSyncItem } from '@brand/core';
import { WithAddressesDto, toAddressSync } from './address.dto';
import { MAX_SYNC_ITEMS } from './customer-sync.dto';
import { MayBeOmitted } from './decorators';

@JSONSchema({
  title: 'SupplierSyncItem',
  description: 'One supplier, matched by supplier_number. Fields not sent keep their value.',
})
export class SupplierSyncItemDto extends WithAddressesDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  supplier_number!: string;

  @MayBeOmitted()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Required for a new supplier.' })
  name?: string;

  @MayBeOmitted()
  @IsString()
  @JSONSchema({ description: 'ISO 4217 code; required for a new supplier.' })
  currency?: string;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Defaults to true for a new supplier.' })
  active?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  email?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'true deletes the supplier; refused while production orders or other data refer to it.' })
  delete?: boolean;
}

@JSONSchema({ title: 'SupplierSyncRequest' })
export class SupplierSyncRequestDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'must contain at least one item' })
  @ArrayMaxSize(MAX_SYNC_ITEMS, {
    message: `must contain at most ${MAX_SYNC_ITEMS} items per request; split larger batches`,
  })
  @ValidateNested({ each: true })
  @Type(() => SupplierSyncItemDto)
  suppliers!: SupplierSyncItemDto[];
}

export function toSupplierSyncItem(item: SupplierSyncItemDto): SupplierSyncItem {
  const command: SupplierSyncItem = { supplierNumber: item.supplier_number };
  const addresses = toAddressSync(item);
  if (item.name !== undefined) command.name = item.name;
  if (item.currency !== undefined) command.currency = item.currency;
  if (item.active !== undefined) command.active = item.active;
  if (item.email !== undefined) command.email = item.email;
  if (addresses) command.addresses = addresses;
  if (item.delete !== undefined) command.delete = item.delete;
  return command;
}
