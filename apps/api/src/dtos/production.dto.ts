import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  CreateDeliveryNoteInput,
  CreateProductionOrderInput,
  DeliveryNoteReceipt,
  MONEY_SCALE,
  MarkItem,
  VariantLineInput,
  parseDecimal,
} from '@brand/core';
import { IsAmount, IsId, IsInt32, MayBeOmitted, Satisfies, documentNumber, documentNumberValue } from './decorators';
import { ExportQueryDto, IncludeFlag, MarkItemDto, markItems } from './export.dto';
import { ArticleQuantityDto, toArticleQuantity } from './order.dto';
import { MAX_ORDER_LINES, VariantKeyDto, lineArray, variantKey } from './variant-lines.dto';

/*
 * Bodies and query parameters of production: `POST /v10/production-orders`, its delivery notes,
 * the export and mark, and the warehouse's `POST /3pl/production/receive`. Shapes only; whether
 * the supplier, SKU, order or note exists is the core's business.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_MESSAGE = { message: '$property must be a date written YYYY-MM-DD' };
const required = {
  message: (args: ValidationArguments) => (args.value === undefined ? 'is required' : 'must be an object'),
};

@JSONSchema({
  title: 'ProductionOrderLineRequest',
  description: 'A variant by sku or ean (exactly one), the pieces to make and optionally the agreed cost.',
})
export class ProductionOrderLineDto extends ArticleQuantityDto {
  @IsOptional()
  @IsAmount()
  @JSONSchema({ description: 'Cost per piece in the production order currency; at most 2 decimals; default null.' })
  unit_cost?: number | null;
}

@JSONSchema({ title: 'CreateProductionOrder' })
export class CreateProductionOrderDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: 'An active supplier of the brand.' })
  supplier_number!: string;

  @MayBeOmitted()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a 3-letter ISO 4217 code in capitals, such as EUR' })
  @JSONSchema({ description: "Default: the supplier's currency." })
  currency?: string;

  @IsOptional()
  @IsString()
  @Matches(DATE, DATE_MESSAGE)
  @JSONSchema({ format: 'date', description: 'YYYY-MM-DD; default null.' })
  expected_delivery?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(4000)
  notes?: string | null;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of custom fields' })
  @JSONSchema({
    type: 'object',
    additionalProperties: true,
    description: 'Custom fields, shown to the warehouse on its delivery notes; default {}.',
  })
  production_order_meta?: Record<string, unknown>;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(MAX_ORDER_LINES)
  @IsId({ each: true })
  @JSONSchema({
    description: 'Ids of orders of the brand this production makes goods for (make-to-order); default [].',
  })
  sales_order_ids?: number[];

  @lineArray(() => ProductionOrderLineDto, { description: 'One line per variant.' })
  lines!: ProductionOrderLineDto[];
}

@JSONSchema({ title: 'CreateDeliveryNote' })
export class CreateDeliveryNoteDto {
  @IsOptional()
  @IsString()
  @Matches(DATE, DATE_MESSAGE)
  @JSONSchema({ format: 'date', description: "YYYY-MM-DD; default: the production order's." })
  expected_delivery?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(4000)
  notes?: string | null;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of custom fields' })
  @JSONSchema({
    type: 'object',
    additionalProperties: true,
    description: 'Custom fields of the delivery note (production_order_delivery_note_meta); default {}.',
  })
  meta?: Record<string, unknown>;

  @lineArray(() => ArticleQuantityDto, { description: 'Variants of the production order and the pieces on their way.' })
  lines!: ArticleQuantityDto[];
}

@JSONSchema({
  title: 'ReceivedLine',
  description: 'A variant of the delivery note by sku or ean (exactly one) and the pieces received.',
})
export class ReceivedLineDto extends VariantKeyDto {
  @IsInt32({ min: 0 })
  @JSONSchema({ description: 'Pieces received in this call; added to earlier receipts.' })
  received_quantity!: number;
}

@JSONSchema({ title: 'ThirdPartyProductionReceipt' })
export class ThirdPartyProductionReceiptDto {
  @Satisfies('isDocumentNumber', documentNumberValue)
  @JSONSchema({
    type: ['integer', 'string'],
    description: 'The delivery note number (an integer or a string of digits).',
  })
  production_order_delivery_note_number!: number | string;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of custom fields' })
  @JSONSchema({
    type: 'object',
    additionalProperties: true,
    description: "Merged into the note's meta: sent keys are added or replaced, others kept; omitted: unchanged.",
  })
  meta?: Record<string, unknown>;

  @IsOptional()
  @JSONSchema({ description: 'Ignored on receive: use meta.' })
  production_order_delivery_note_meta?: unknown;

  @lineArray(() => ReceivedLineDto)
  lines!: ReceivedLineDto[];
}

@JSONSchema({
  title: 'ThirdPartyProductionReceiveRequest',
  description: 'Reports pieces of a delivery note received; all lines or none are booked.',
})
export class ThirdPartyProductionReceiveDto {
  @IsObject(required)
  @ValidateNested()
  @Type(() => ThirdPartyProductionReceiptDto)
  production_order_delivery_note!: ThirdPartyProductionReceiptDto;
}

export class ProductionOrderExportQueryDto extends ExportQueryDto {
  @IncludeFlag('1 adds draft production orders (the spec calls it include_open)')
  include_open?: '0' | '1';

  @IncludeFlag('1 adds closed production orders')
  include_closed?: '0' | '1';
}

@JSONSchema({ title: 'ProductionOrderMarkItem' })
export class ProductionOrderMarkItemDto extends MarkItemDto {
  @IsId()
  production_order_id!: number;
}

@JSONSchema({
  title: 'ProductionOrdersMarkAsExported',
  description: 'At most 10 production orders; all are marked or, when one is refused, none.',
})
export class ProductionOrdersMarkAsExportedDto {
  @markItems(() => ProductionOrderMarkItemDto)
  production_orders!: ProductionOrderMarkItemDto[];
}

// ---- to the core's inputs (fields not sent stay undefined so the core applies its defaults) ----

export function toCreateProductionOrderInput(body: CreateProductionOrderDto): CreateProductionOrderInput {
  const input: CreateProductionOrderInput = {
    supplierNumber: body.supplier_number,
    // The DTO allowed at most 2 decimals, so the conversion to minor units is exact.
    lines: body.lines.map((line) => ({
      ...toArticleQuantity(line),
      ...(line.unit_cost !== undefined
        ? { unitCost: line.unit_cost === null ? null : parseDecimal(line.unit_cost, MONEY_SCALE)! }
        : {}),
    })),
  };
  if (body.currency !== undefined) input.currency = body.currency;
  if (body.expected_delivery !== undefined) input.expectedDelivery = body.expected_delivery;
  if (body.notes !== undefined) input.notes = body.notes;
  if (body.production_order_meta !== undefined) input.productionOrderMeta = body.production_order_meta;
  if (body.sales_order_ids !== undefined) input.salesOrderIds = body.sales_order_ids;
  return input;
}

export function toCreateDeliveryNoteInput(body: CreateDeliveryNoteDto): CreateDeliveryNoteInput {
  const input: CreateDeliveryNoteInput = { lines: body.lines.map((line): VariantLineInput => toArticleQuantity(line)) };
  if (body.expected_delivery !== undefined) input.expectedDelivery = body.expected_delivery;
  if (body.notes !== undefined) input.notes = body.notes;
  if (body.meta !== undefined) input.meta = body.meta;
  return input;
}

export function toDeliveryNoteReceipt(body: ThirdPartyProductionReceiptDto): DeliveryNoteReceipt {
  return {
    deliveryNoteNumber: documentNumber(body.production_order_delivery_note_number),
    ...(body.meta !== undefined ? { meta: body.meta } : {}),
    lines: body.lines.map((line) => ({ ...variantKey(line), receivedQuantity: line.received_quantity })),
  };
}

/** The core's mark items of `POST /v10/production-orders/mark-as-exported`. */
export function toProductionOrderMarks(body: ProductionOrdersMarkAsExportedDto): MarkItem[] {
  return body.production_orders.map((item) => ({
    documentId: item.production_order_id,
    systemId: item.system_id,
    note: item.note ?? null,
  }));
}
