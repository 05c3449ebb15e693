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
import { SupplierFields, SupplierSyncItem } from '@brand/core';
import { WithAddressesDto, toAddressSync } from './address.dto';
import { MAX_SYNC_ITEMS } from './customer-sync.dto';
import { MayBeOmitted } from './decorators';

/** The checks of a supplier number, wherever one is sent. */
export function SupplierNumber(): PropertyDecorator {
  return (target, key) => {
    MaxLength(64)(target, key);
    MinLength(1)(target, key);
    IsString()(target, key);
  };
}

/**
 * The fields of a supplier that a sync item, `POST /v10/suppliers` and `PATCH /v10/suppliers/{id}`
 * take, all but the number: declared once, so the three validate them alike.
 */
export abstract class SupplierFieldsDto extends WithAddressesDto {
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
}

@JSONSchema({
  title: 'SupplierSyncItem',
  description: 'One supplier, matched by supplier_number. Fields not sent keep their value.',
})
export class SupplierSyncItemDto extends SupplierFieldsDto {
  @SupplierNumber()
  supplier_number!: string;

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

/** The core's fields of a validated body or item; fields not sent stay undefined so that they keep their stored value. */
export function toSupplierFields(item: SupplierFieldsDto): SupplierFields {
  const command: SupplierFields = {};
  const addresses = toAddressSync(item);
  if (item.name !== undefined) command.name = item.name;
  if (item.currency !== undefined) command.currency = item.currency;
  if (item.active !== undefined) command.active = item.active;
  if (item.email !== undefined) command.email = item.email;
  if (addresses) command.addresses = addresses;
  return command;
}

/** The core command for one validated sync item. */
export function toSupplierSyncItem(item: SupplierSyncItemDto): SupplierSyncItem {
  return {
    supplierNumber: item.supplier_number,
    ...toSupplierFields(item),
    ...(item.delete !== undefined ? { delete: item.delete } : {}),
  };
}
