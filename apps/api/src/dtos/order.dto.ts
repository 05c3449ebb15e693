import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  MONEY_SCALE,
  OrderAddress,
  OrderType,
  PlaceOrderInput,
  VariantLineInput,
  parseDecimal,
  ORDER_TYPES,
} from '@brand/core';
import { IsAmount, IsId, IsInt32, MayBeOmitted, NotTogetherWith } from './decorators';
import { VariantKeyDto, lineArray, variantKey } from './variant-lines.dto';

/**
 * Bodies of the order back office and of order creation (`POST /v10/order-channels/{publicId}/orders`).
 * The DTOs check JSON types, required fields and the either-or rules (sku or ean, customer_id or
 * customer_number); whether the SKU exists, the product may be sold or the stock suffices is the
 * core's `placeOrder`.
 */

/**
 * The message of a type check on a field that is required unless `other` is sent: a missing value
 * is reported as missing, a present one of the wrong type as the type problem.
 */
function requiredUnless(other: string, typeProblem: string) {
  return {
    message: (args: ValidationArguments) =>
      args.value === undefined ? `is required when ${other} is not sent` : typeProblem,
  };
}

@JSONSchema({ title: 'CreateOrderChannelRequest' })
export class CreateOrderChannelDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name!: string;

  @IsIn(ORDER_TYPES, { message: `must be one of ${ORDER_TYPES.join(', ')}` })
  @JSONSchema({
    type: 'string',
    enum: [...ORDER_TYPES],
    description:
      'Orders of this channel are B2B (wholesale prices, customer discount) or B2C (retail prices incl. VAT).',
  })
  order_type!: OrderType;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Approve orders as soon as they are created (and create their shipment); default false.' })
  auto_approve?: boolean;

  @IsOptional()
  @IsId()
  @JSONSchema({
    description: 'Every order of the channel belongs to this drop (orders need not name one); default null.',
  })
  drop_id?: number | null;
}

/** One line of an order, a partial shipment or a credit note: a variant by sku or by ean, and a number of pieces. */
@JSONSchema({
  title: 'ArticleQuantity',
  description: 'A variant by sku or ean (exactly one of them) and a number of pieces.',
})
export class ArticleQuantityDto extends VariantKeyDto {
  @IsInt32({ min: 1 })
  quantity!: number;
}

@JSONSchema({ title: 'OrderAddress', description: 'A postal address copied onto the order.' })
export class OrderAddressDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({ description: 'Top line, typically the receiving party.' })
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  att?: string | null;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({ description: 'Street with house number, floor.' })
  address!: string;

  @IsString()
  @MaxLength(32)
  zip!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Default: empty.' })
  region?: string | null;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  city!: string;

  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be a 2-letter ISO 3166-1 code in capitals, such as NL' })
  country!: string;
}

@JSONSchema({ title: 'OrderShippingCode', description: 'How the warehouse should send the goods.' })
export class OrderShippingCodeDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: "Typically maps to a carrier code in the warehouse's system." })
  code!: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  @JSONSchema({ description: 'Drop point number when the code is of drop point type; default null.' })
  drop_point_id?: string | null;
}

@JSONSchema({ title: 'OrderResponsiblePerson' })
export class OrderResponsiblePersonDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  first_name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  last_name?: string | null;
}

@JSONSchema({
  title: 'PlaceOrder',
  description: 'An order: the customer (by id or number), the lines, and what the warehouse and invoice need.',
})
export class PlaceOrderDto {
  @ValidateIf((order: PlaceOrderDto) => order.customer_id !== undefined || order.customer_number === undefined)
  @IsId(requiredUnless('customer_number', 'must be an integer number'))
  @JSONSchema({ description: 'Required when customer_number is not sent.' })
  customer_id?: number;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @NotTogetherWith('customer_id')
  @JSONSchema({ description: 'Required when customer_id is not sent.' })
  customer_number?: string;

  @MayBeOmitted()
  @IsId()
  @JSONSchema({
    description: 'Required (or drop_code) when the brand requires a drop and the channel has no fixed drop.',
  })
  drop_id?: number;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @NotTogetherWith('drop_id')
  @JSONSchema({ description: 'The drop by its code, instead of drop_id.' })
  drop_code?: string;

  @MayBeOmitted()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a 3-letter ISO 4217 code in capitals, such as EUR' })
  @JSONSchema({
    description: "Default: the customer's currency (B2B) or the brand's (B2C). Every line needs a price in it.",
  })
  currency?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: "Typically the end-customer's own order number." })
  reference?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(5000)
  @JSONSchema({ description: 'Notes and packing instructions for the warehouse.' })
  notes?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  email?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  telephone?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => OrderAddressDto)
  @JSONSchema({ description: "Default: the customer's first address." })
  invoice_address?: OrderAddressDto | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => OrderAddressDto)
  @JSONSchema({ description: "Default: the customer's first address." })
  delivery_address?: OrderAddressDto | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => OrderShippingCodeDto)
  shipping_code?: OrderShippingCodeDto | null;

  @IsOptional()
  @IsAmount()
  @JSONSchema({
    description:
      "Shipping charged, in the order's currency and VAT basis (net on B2B, incl. VAT on B2C); at most 2 decimals.",
  })
  shipping_cost?: number | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => OrderResponsiblePersonDto)
  responsible_person?: OrderResponsiblePersonDto | null;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of custom fields' })
  @JSONSchema({
    type: 'object',
    additionalProperties: true,
    description: 'Custom fields, shown to the warehouse; default {}.',
  })
  order_meta?: Record<string, unknown>;

  @lineArray(() => ArticleQuantityDto, {
    description: 'A variant may appear on several lines; stock is checked on their sum.',
  })
  lines!: ArticleQuantityDto[];
}

@JSONSchema({ title: 'PlaceOrderRequest' })
export class PlaceOrderRequestDto {
  @IsObject({
    message: (args: ValidationArguments) => (args.value === undefined ? 'is required' : 'must be an object'),
  })
  @ValidateNested()
  @Type(() => PlaceOrderDto)
  order!: PlaceOrderDto;
}

@JSONSchema({ title: 'ApproveOrderRequest', description: 'The body is optional.' })
export class ApproveOrderDto {
  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Create one shipment for every open piece; default true.' })
  create_shipment?: boolean;
}

@JSONSchema({ title: 'CreatePartialShipmentRequest' })
export class CreatePartialShipmentDto {
  @lineArray(() => ArticleQuantityDto, {
    description: "Pieces to ship; at most the open pieces of the variant's order lines.",
  })
  lines!: ArticleQuantityDto[];
}

/** The core's line reference: exactly one of sku and ean (the DTO made sure). */
export function toArticleQuantity(line: ArticleQuantityDto): VariantLineInput {
  return { ...variantKey(line), quantity: line.quantity };
}

function toOrderAddress(address: OrderAddressDto | null): OrderAddress | null {
  if (address === null) return null;
  return {
    name: address.name,
    att: address.att ?? null,
    address: address.address,
    zip: address.zip,
    region: address.region ?? '',
    city: address.city,
    country: address.country,
  };
}

/**
 * The core command of a validated order body (`PlaceOrderInput`): fields not sent stay undefined
 * so the core applies its defaults (the customer's address, its currency, the channel's drop).
 */
export function toPlaceOrderInput(order: PlaceOrderDto): PlaceOrderInput {
  const input: PlaceOrderInput = { lines: order.lines.map(toArticleQuantity) };
  if (order.customer_id !== undefined) input.customerId = order.customer_id;
  if (order.customer_number !== undefined) input.customerNumber = order.customer_number;
  if (order.drop_id !== undefined) input.dropId = order.drop_id;
  if (order.drop_code !== undefined) input.dropCode = order.drop_code;
  if (order.currency !== undefined) input.currency = order.currency;
  if (order.reference !== undefined) input.reference = order.reference;
  if (order.notes !== undefined) input.notes = order.notes;
  if (order.email !== undefined) input.email = order.email;
  if (order.telephone !== undefined) input.telephone = order.telephone;
  if (order.invoice_address !== undefined) input.invoiceAddress = toOrderAddress(order.invoice_address);
  if (order.delivery_address !== undefined) input.deliveryAddress = toOrderAddress(order.delivery_address);
  if (order.shipping_code !== undefined) {
    input.shippingCode =
      order.shipping_code === null
        ? null
        : { code: order.shipping_code.code, dropPointId: order.shipping_code.drop_point_id ?? null };
  }
  // The DTO allowed at most 2 decimals, so the conversion to minor units is exact.
  if (order.shipping_cost !== undefined)
    input.shippingCost = order.shipping_cost === null ? null : parseDecimal(order.shipping_cost, MONEY_SCALE)!;
  if (order.responsible_person !== undefined) {
    const person = order.responsible_person;
    input.responsiblePerson =
      person === null
        ? null
        : { email: person.email, firstName: person.first_name, lastName: person.last_name ?? null };
  }
  if (order.order_meta !== undefined) input.orderMeta = order.order_meta;
  return input;
}
