import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  AdHocReturnLineInput,
  CLAIM_TYPES,
  CreateReturnLineInput,
  MAX_MARKS_PER_CALL,
  ReceiptLineInput,
} from '@brand/core';
import { IsId, IsInt32, MayBeOmitted, Satisfies, documentNumber, documentNumberValue } from './decorators';
import { ExportQueryDto, IncludeFlag, MarkItemDto, markItems } from './export.dto';
import { VariantKeyDto, lineArray, variantKey } from './variant-lines.dto';

/*
 * Bodies and query parameters of the returns flow: the back office (`POST /v10/returns`), the
 * warehouse's receipt and ad hoc returns (`POST /3pl/returns/receive`, `…/create-ad-hoc-return`),
 * the 3PL export and its mark-as-exported. Shapes only: whether the order, shipment, RMA, SKU or
 * claim cause exists, and how many pieces may come back, is the core's business.
 */

const requiredObject = {
  message: (args: ValidationArguments) => (args.value === undefined ? 'is required' : 'must be an object'),
};
const claimTypeMessage = { message: `claim_type must be one of ${CLAIM_TYPES.join(', ')}` };

// ---- back office ----

@JSONSchema({
  title: 'CreateReturnLine',
  description: 'Pieces of a variant of the order (by sku or ean) announced back.',
})
export class CreateReturnLineDto extends VariantKeyDto {
  @IsInt32({ min: 1 })
  quantity!: number;

  @IsIn(CLAIM_TYPES, claimTypeMessage)
  @JSONSchema({
    type: 'string',
    enum: [...CLAIM_TYPES],
    description: 'return: the goods come back (and are restocked on receipt); claim: a complaint (not restocked).',
  })
  claim_type!: string;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({
    description: 'A claim cause of the brand by code, ignoring case; a code several causes share is refused.',
  })
  claim_cause_code?: string;
}

@JSONSchema({ title: 'CreateReturnRequest', description: 'An RMA for pieces of one order; it starts open.' })
export class CreateReturnDto {
  @Satisfies('isDocumentNumber', documentNumberValue)
  @JSONSchema({
    type: ['integer', 'string'],
    description: 'The order the pieces were bought on (an integer or a string of digits).',
  })
  order_number!: number | string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  notes?: string | null;

  @lineArray(() => CreateReturnLineDto)
  @JSONSchema({ description: "Per variant, at most the order's pieces less what its other returns already expect." })
  lines!: CreateReturnLineDto[];
}

export function toCreateReturnLines(body: CreateReturnDto): CreateReturnLineInput[] {
  return body.lines.map((line) => ({
    ...variantKey(line),
    quantity: line.quantity,
    claimType: line.claim_type,
    ...(line.claim_cause_code !== undefined ? { claimCauseCode: line.claim_cause_code } : {}),
  }));
}

// ---- the warehouse's receipt ----

@JSONSchema({
  title: 'ReceiveReturnLine',
  description: 'Pieces of a variant of the return (by sku or ean) that arrived.',
})
export class ReceiveReturnLineDto extends VariantKeyDto {
  @IsInt32({ min: 0 })
  @JSONSchema({ description: 'Pieces received (0 allowed); at most the pieces the return expects of the variant.' })
  received_quantity!: number;
}

@JSONSchema({ title: 'ReceiveReturn' })
export class ReceiveReturnBodyDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({ description: 'The RMA of the return (GET /3pl/returns/export shows it).' })
  rma!: string;

  @lineArray(() => ReceiveReturnLineDto)
  @JSONSchema({ description: 'Variants of the return left out received 0; at least one piece must be received.' })
  lines!: ReceiveReturnLineDto[];
}

@JSONSchema({
  title: 'ReceiveReturnRequest',
  description: 'Reports an approved RMA received; all lines or none are recorded.',
})
export class ReceiveReturnDto {
  @IsObject(requiredObject)
  @ValidateNested()
  @Type(() => ReceiveReturnBodyDto)
  return!: ReceiveReturnBodyDto;
}

export function toReceiptLines(body: ReceiveReturnBodyDto): ReceiptLineInput[] {
  return body.lines.map((line) => ({ ...variantKey(line), receivedQuantity: line.received_quantity }));
}

// ---- ad hoc returns ----

@JSONSchema({
  title: 'AdHocReturnLine',
  description: 'Pieces of a variant of the shipment (by sku or ean) that came back without an announcement.',
})
export class AdHocReturnLineDto extends VariantKeyDto {
  @IsInt32({ min: 1 })
  @JSONSchema({ description: 'Per variant, at most the pieces the shipment holds.' })
  quantity!: number;

  @IsBoolean()
  @JSONSchema({ description: 'Put the pieces back in stock (only for claim_type return).' })
  return_to_inventory!: boolean;

  @IsIn(CLAIM_TYPES, claimTypeMessage)
  @JSONSchema({
    type: 'string',
    enum: [...CLAIM_TYPES],
    description: 'For reporting; pieces are restocked only when return and return_to_inventory is true.',
  })
  claim_type!: string;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: 'A claim cause of the brand by code, ignoring case.' })
  claim_cause_code?: string;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ default: true, description: 'Refund the line in the external storefront.' })
  should_refund_storefront?: boolean;
}

@JSONSchema({ title: 'AdHocReturn' })
export class AdHocReturnBodyDto {
  @Satisfies('isDocumentNumber', documentNumberValue)
  @JSONSchema({
    type: ['integer', 'string'],
    description: 'The shipment the pieces came back from (a string of digits, or an integer).',
  })
  shipment_number!: number | string;

  @lineArray(() => AdHocReturnLineDto)
  lines!: AdHocReturnLineDto[];
}

@JSONSchema({
  title: 'CreateAdHocReturnRequest',
  description: "What happens depends on the brand's ad_hoc_return_mode setting (null: refused).",
})
export class CreateAdHocReturnDto {
  @IsObject(requiredObject)
  @ValidateNested()
  @Type(() => AdHocReturnBodyDto)
  return!: AdHocReturnBodyDto;
}

export function toAdHocReturn(body: AdHocReturnBodyDto): { shipmentNumber: number; lines: AdHocReturnLineInput[] } {
  return {
    shipmentNumber: documentNumber(body.shipment_number),
    lines: body.lines.map((line) => ({
      ...variantKey(line),
      quantity: line.quantity,
      returnToInventory: line.return_to_inventory,
      claimType: line.claim_type,
      ...(line.claim_cause_code !== undefined ? { claimCauseCode: line.claim_cause_code } : {}),
      ...(line.should_refund_storefront !== undefined ? { shouldRefundStorefront: line.should_refund_storefront } : {}),
    })),
  };
}

// ---- export and mark-as-exported ----

export class ReturnExportQueryDto extends ExportQueryDto {
  @IncludeFlag('1 adds draft (open, not yet approved) RMAs')
  include_drafts?: '0' | '1';

  @IncludeFlag('1 adds received and credited RMAs')
  include_received?: '0' | '1';
}

@JSONSchema({ title: 'ReturnMarkItem' })
export class ReturnMarkItemDto extends MarkItemDto {
  @IsId()
  return_id!: number;
}

@JSONSchema({
  title: 'ReturnsMarkAsExported',
  description: `At most ${MAX_MARKS_PER_CALL} returns; all are marked or, when one is refused, none.`,
})
export class ReturnsMarkAsExportedDto {
  @markItems(() => ReturnMarkItemDto)
  returns!: ReturnMarkItemDto[];
}
