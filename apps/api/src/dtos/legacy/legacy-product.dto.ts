import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  LegacyPriceInput,
  LegacyProductChanges,
  LegacyProductFields,
  LegacyStockInput,
  LegacyVariantChanges,
  LegacyVariantInput,
} from '@brand/core';
import { IsId, IsInt32, MayBeOmitted } from '../decorators';
import { Satisfies } from '../decorators';
import { IsRecordOf, eanValue, priceValue, stockValue, stringValue } from './legacy-decorators';

/** Variants per product in one request. */
export const MAX_LEGACY_VARIANTS = 1000;

/** A schema object as `@JSONSchema` takes it (not a reference, not a function). */
type SchemaObject = Exclude<Parameters<typeof JSONSchema>[0], { $ref: string } | ((...args: never[]) => unknown)>;

type PriceWire = { sales_price?: number; rec_sales_price?: number; offer_price?: number | null };
type StockWire = { quantity: number; delivery?: string | null };

const ATTRIBUTES_SCHEMA: SchemaObject = {
  type: 'object',
  minProperties: 1,
  additionalProperties: { type: 'string' },
  description:
    'Attribute name → value (e.g. {"color":"Red","size":"M"}); at least one; every variant of a product has the same names (error 1000001).',
};
const PRICES_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: {
      sales_price: { type: 'number', description: 'Wholesale (B2B); default 0' },
      rec_sales_price: { type: 'number', description: 'Recommended retail (B2C); default 0' },
      offer_price: { type: ['number', 'null'], description: 'Replaces sales_price on B2B when set; default null' },
    },
  },
  description:
    "Keyed by ISO 4217 currency code; at most 2 decimals. A new variant needs a price in the brand's base currency.",
};
const INVENTORY_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['quantity'],
    properties: { quantity: { type: 'integer', minimum: 0 }, delivery: { type: ['string', 'null'], format: 'date' } },
  },
  description:
    'Keyed by stock type: stock (or default) is the default inventory location, any other key the exact name of an inventory location. ' +
    'quantity sets In stock there; delivery is recorded in the stock ledger.',
};

@JSONSchema({
  title: 'LegacyVariant',
  description: 'A variant of POST /api/products and POST /api/products/{productId}/variants.',
})
export class LegacyVariantDto {
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Unique within the brand (error 1000003).' })
  sku!: string;

  @IsOptional()
  @Satisfies('isLegacyEan', eanValue)
  @JSONSchema({ type: ['integer', 'string', 'null'], description: 'EAN/GTIN, up to 14 digits.' })
  ean?: number | string | null;

  @IsRecordOf('isAttributeObject', stringValue, 'of attribute names to string values')
  @JSONSchema(ATTRIBUTES_SCHEMA)
  attributes!: Record<string, string>;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @JSONSchema({ description: "URL of the variant's picture." })
  picture?: string | null;

  @MayBeOmitted()
  @IsRecordOf('isPriceObject', priceValue, 'keyed by currency code')
  @JSONSchema(PRICES_SCHEMA)
  prices?: Record<string, PriceWire>;

  @MayBeOmitted()
  @IsRecordOf('isInventoryObject', stockValue, 'keyed by stock type')
  @JSONSchema(INVENTORY_SCHEMA)
  inventory?: Record<string, StockWire>;
}

@JSONSchema({
  title: 'LegacyVariantChanges',
  description: 'A variant of PUT /api/products/{productId}/variants/{variantId}: fields not sent keep their value.',
})
export class LegacyVariantChangesDto {
  @MayBeOmitted()
  @IsString()
  @MaxLength(255)
  sku?: string;

  @IsOptional()
  @Satisfies('isLegacyEan', eanValue)
  @JSONSchema({ type: ['integer', 'string', 'null'] })
  ean?: number | string | null;

  @MayBeOmitted()
  @IsRecordOf('isAttributeObject', stringValue, 'of attribute names to string values')
  @JSONSchema({
    ...ATTRIBUTES_SCHEMA,
    description: "New values of the variant's attributes; the names cannot change (error 1000001).",
  })
  attributes?: Record<string, string>;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  picture?: string | null;

  @MayBeOmitted()
  @IsRecordOf('isPriceObject', priceValue, 'keyed by currency code')
  @JSONSchema({
    ...PRICES_SCHEMA,
    description: 'The currencies sent are set (fields not sent keep their value); other currencies stay.',
  })
  prices?: Record<string, PriceWire>;

  @MayBeOmitted()
  @IsRecordOf('isInventoryObject', stockValue, 'keyed by stock type')
  @JSONSchema(INVENTORY_SCHEMA)
  inventory?: Record<string, StockWire>;
}

/** Root fields that create and update treat alike: optional, and those that can be cleared take null. */
export abstract class LegacyProductRootDto {
  @IsOptional()
  @IsString()
  @MaxLength(65_535)
  description?: string | null;

  @IsOptional()
  @IsId()
  @JSONSchema({ description: 'A sub-brand of the brand.' })
  subbrand_id?: number | null;

  @IsOptional()
  @IsId()
  @JSONSchema({ description: 'A collection of the brand.' })
  collection_id?: number | null;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @JSONSchema({ description: 'Primary image URL, kept as sent.' })
  image?: string | null;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  @JSONSchema({ description: 'Image URLs, kept as sent. Default [].' })
  images?: string[];

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Shown in the webshop. Default true.' })
  active?: boolean;

  @IsOptional()
  @IsInt32({ min: 1 })
  @JSONSchema({ description: "Pieces per colli: the product's first colli size (null removes all sizes)." })
  colli?: number | null;
}

@JSONSchema({
  title: 'LegacyProductChanges',
  description:
    'Root fields of PUT /api/products/{productId}; fields not sent keep their value. Variants are not changed here.',
})
export class LegacyProductChangesDto extends LegacyProductRootDto {
  @MayBeOmitted()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Unique within the brand (error 1000002).' })
  item_number?: string;

  @MayBeOmitted()
  @IsString()
  @MaxLength(255)
  name?: string;
}

@JSONSchema({ title: 'LegacyProduct', description: 'The product of POST /api/products.' })
export class LegacyProductDto extends LegacyProductRootDto {
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Unique within the brand (error 1000002).' })
  item_number!: string;

  @IsString()
  @MaxLength(255)
  name!: string;

  @IsArray()
  @ArrayMinSize(1, { message: 'must contain at least one variant' })
  @ArrayMaxSize(MAX_LEGACY_VARIANTS)
  @ValidateNested({ each: true })
  @Type(() => LegacyVariantDto)
  variants!: LegacyVariantDto[];
}

@JSONSchema({ title: 'LegacyProductRequest' })
export class LegacyProductRequestDto {
  @IsObject()
  @ValidateNested()
  @Type(() => LegacyProductDto)
  product!: LegacyProductDto;
}

@JSONSchema({ title: 'LegacyProductChangesRequest' })
export class LegacyProductChangesRequestDto {
  @IsObject()
  @ValidateNested()
  @Type(() => LegacyProductChangesDto)
  product!: LegacyProductChangesDto;
}

@JSONSchema({ title: 'LegacyVariantRequest' })
export class LegacyVariantRequestDto {
  @IsObject()
  @ValidateNested()
  @Type(() => LegacyVariantDto)
  variant!: LegacyVariantDto;
}

@JSONSchema({ title: 'LegacyVariantChangesRequest' })
export class LegacyVariantChangesRequestDto {
  @IsObject()
  @ValidateNested()
  @Type(() => LegacyVariantChangesDto)
  variant!: LegacyVariantChangesDto;
}

@JSONSchema({ title: 'LegacyProductListQuery' })
export class LegacyProductListQueryDto {
  @MayBeOmitted()
  @IsString()
  @Matches(/\S/, { message: 'must name an attribute, such as color' })
  @JSONSchema({
    description:
      'Product pagination: every product of the page comes back once per distinct value of this attribute among its variants, with only those variants. ' +
      'page and limit still count products, so a page may hold more entries than limit; walk by increasing page from 0 until a page is empty.',
  })
  split_by_attribute?: string;
}

function toPrices(prices: Record<string, PriceWire>): Record<string, LegacyPriceInput> {
  return Object.fromEntries(
    Object.entries(prices).map(([currency, p]) => [
      currency,
      {
        ...(p.sales_price !== undefined ? { salesPrice: p.sales_price } : {}),
        ...(p.rec_sales_price !== undefined ? { recSalesPrice: p.rec_sales_price } : {}),
        ...(p.offer_price !== undefined ? { offerPrice: p.offer_price } : {}),
      },
    ]),
  );
}

function toInventory(inventory: Record<string, StockWire>): Record<string, LegacyStockInput> {
  return Object.fromEntries(
    Object.entries(inventory).map(([key, s]) => [key, { quantity: s.quantity, delivery: s.delivery ?? null }]),
  );
}

/** The core command for a validated variant; fields not sent stay undefined. */
export function toLegacyVariantChanges(v: LegacyVariantChangesDto): LegacyVariantChanges {
  return {
    ...(v.sku !== undefined ? { sku: v.sku } : {}),
    ...(v.ean !== undefined ? { ean: v.ean } : {}),
    ...(v.attributes !== undefined ? { attributes: v.attributes } : {}),
    ...(v.picture !== undefined ? { picture: v.picture } : {}),
    ...(v.prices !== undefined ? { prices: toPrices(v.prices) } : {}),
    ...(v.inventory !== undefined ? { inventory: toInventory(v.inventory) } : {}),
  };
}

export function toLegacyVariantInput(v: LegacyVariantDto): LegacyVariantInput {
  return { ...toLegacyVariantChanges(v), sku: v.sku, attributes: v.attributes };
}

export function toLegacyProductChanges(
  p: LegacyProductRootDto & { item_number?: string; name?: string },
): LegacyProductChanges {
  return {
    ...(p.item_number !== undefined ? { itemNumber: p.item_number } : {}),
    ...(p.name !== undefined ? { name: p.name } : {}),
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.subbrand_id !== undefined ? { subbrandId: p.subbrand_id } : {}),
    ...(p.collection_id !== undefined ? { collectionId: p.collection_id } : {}),
    ...(p.image !== undefined ? { image: p.image } : {}),
    ...(p.images !== undefined ? { images: p.images } : {}),
    ...(p.active !== undefined ? { active: p.active } : {}),
    ...(p.colli !== undefined ? { colli: p.colli } : {}),
  };
}

export function toLegacyProductInput(p: LegacyProductDto): LegacyProductFields & { variants: LegacyVariantInput[] } {
  return {
    ...toLegacyProductChanges(p),
    itemNumber: p.item_number,
    name: p.name,
    variants: p.variants.map(toLegacyVariantInput),
  };
}
