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
import { CustomerFields, CustomerSyncItem, IdOrCode } from '@brand/core';
import { WithAddressesDto, toAddressSync } from './address.dto';
import { IsDecimal, IsId, MayBeOmitted, NotTogetherWith } from './decorators';

/** Items per sync request: large enough for an ERP's batch, small enough for one transaction. */
export const MAX_SYNC_ITEMS = 1000;

@JSONSchema({ title: 'CustomerGroupReference', description: 'A customer group by id or by code.' })
export class CustomerGroupReferenceDto {
  @IsOptional()
  @IsId()
  customer_group_id?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  customer_group_code?: string;
}

@JSONSchema({ title: 'PaymentTermsReference', description: 'Payment terms by id or by code.' })
export class PaymentTermsReferenceDto {
  @IsOptional()
  @IsId()
  payment_terms_id?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  payment_terms_code?: string;
}

/** The spelling the spec's sample body uses (`payment_term` with `payment_term_code`). */
@JSONSchema({
  title: 'PaymentTermReference',
  description: 'Payment terms by id or by code, in the spelling of the sample body.',
})
export class PaymentTermReferenceDto {
  @IsOptional()
  @IsId()
  payment_term_id?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  payment_term_code?: string;
}

/** The checks of a customer number, wherever one is sent. */
export function CustomerNumber(): PropertyDecorator {
  return (target, key) => {
    MaxLength(64)(target, key);
    MinLength(1)(target, key);
    IsString()(target, key);
  };
}

/**
 * The fields of a customer that a sync item, `POST /v10/customers` and `PATCH /v10/customers/{id}`
 * take, all but the number: declared once, so the three validate them alike.
 */
export abstract class CustomerFieldsDto extends WithAddressesDto {
  @MayBeOmitted()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Required for a new customer.' })
  name?: string;

  @MayBeOmitted()
  @IsString()
  @JSONSchema({ description: 'ISO 4217 code; required for a new customer.' })
  currency?: string;

  @MayBeOmitted()
  @IsDecimal(2, { min: 0, max: 100 })
  @JSONSchema({ description: 'Percent, 0 to 100, at most 2 decimals.' })
  discount_percentage?: number;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Defaults to true for a new customer.' })
  active?: boolean;

  // Contact fields may be sent as null to clear them.
  @IsOptional()
  @IsString()
  @MaxLength(255)
  email?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  telephone?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  vat_number?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  eori_number?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerGroupReferenceDto)
  @JSONSchema({ description: 'null removes the customer from its group.' })
  customer_group?: CustomerGroupReferenceDto | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => PaymentTermsReferenceDto)
  @JSONSchema({ description: 'null clears the payment terms.' })
  payment_terms?: PaymentTermsReferenceDto | null;

  @IsOptional()
  @NotTogetherWith('payment_terms')
  @ValidateNested()
  @Type(() => PaymentTermReferenceDto)
  @JSONSchema({ description: 'The same as payment_terms, in the spelling of the sample body; send one of the two.' })
  payment_term?: PaymentTermReferenceDto | null;
}

@JSONSchema({
  title: 'CustomerSyncItem',
  description: 'One customer, matched by customer_number. Fields not sent keep their value.',
})
export class CustomerSyncItemDto extends CustomerFieldsDto {
  @CustomerNumber()
  customer_number!: string;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'true deletes the customer; refused while other data refers to it.' })
  delete?: boolean;
}

@JSONSchema({ title: 'CustomerSyncRequest' })
export class CustomerSyncRequestDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'must contain at least one item' })
  @ArrayMaxSize(MAX_SYNC_ITEMS, {
    message: `must contain at most ${MAX_SYNC_ITEMS} items per request; split larger batches`,
  })
  @ValidateNested({ each: true })
  @Type(() => CustomerSyncItemDto)
  customers!: CustomerSyncItemDto[];
}

function reference(id: number | undefined, code: string | undefined): IdOrCode {
  return { ...(id !== undefined ? { id } : {}), ...(code !== undefined ? { code } : {}) };
}

function paymentTermsOf(item: CustomerFieldsDto): IdOrCode | null | undefined {
  if (item.payment_terms !== undefined) {
    return item.payment_terms === null
      ? null
      : reference(item.payment_terms.payment_terms_id, item.payment_terms.payment_terms_code);
  }
  if (item.payment_term !== undefined) {
    return item.payment_term === null
      ? null
      : reference(item.payment_term.payment_term_id, item.payment_term.payment_term_code);
  }
  return undefined;
}

/** The core's fields of a validated body or item; fields not sent stay undefined so that they keep their stored value. */
export function toCustomerFields(item: CustomerFieldsDto): CustomerFields {
  const paymentTerms = paymentTermsOf(item);
  const addresses = toAddressSync(item);
  const group = item.customer_group;
  const command: CustomerFields = {};
  if (item.name !== undefined) command.name = item.name;
  if (item.currency !== undefined) command.currency = item.currency;
  if (item.discount_percentage !== undefined) command.discountPercentage = item.discount_percentage;
  if (item.active !== undefined) command.active = item.active;
  if (item.email !== undefined) command.email = item.email;
  if (item.telephone !== undefined) command.telephone = item.telephone;
  if (item.vat_number !== undefined) command.vatNumber = item.vat_number;
  if (item.eori_number !== undefined) command.eoriNumber = item.eori_number;
  if (group !== undefined)
    command.customerGroup = group === null ? null : reference(group.customer_group_id, group.customer_group_code);
  if (paymentTerms !== undefined) command.paymentTerms = paymentTerms;
  if (addresses) command.addresses = addresses;
  return command;
}

/** The core command for one validated sync item. */
export function toCustomerSyncItem(item: CustomerSyncItemDto): CustomerSyncItem {
  return {
    customerNumber: item.customer_number,
    ...toCustomerFields(item),
    ...(item.delete !== undefined ? { delete: item.delete } : {}),
  };
}
