import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
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
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  IdOrCode,
  SyncMode,
  VariantCostPriceInput,
  VariantImageInput,
  VariantPriceInput,
  VariantSyncItem,
  WeightUnit,
} from '@brand/core';
import { toDtoInstance } from '../http/dto-instance';
import { IsAmount, IsDecimal, IsId, MayBeOmitted } from './decorators';

/**
 * The fields of a variant that the product sync (`product-sync.dto.ts`) and the single variant
 * writes of `/v10` (`product.v10.dto.ts`) share, with the SKU's limit and the mapping onto the
 * core's commands: declared once, so that both validate and map them alike. The product's own
 * fields (`product-fields.dto.ts`) check their sync modes, weights and dates with the constants
 * below too.
 */

export const SYNC_MODES: readonly SyncMode[] = ['replace', 'append'];
export const WEIGHT_TYPES: readonly WeightUnit[] = ['g', 'kg'];
export const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A weight in grams or kilograms, far above any parcel, low enough to be exact in thousandths. */
export const MAX_WEIGHT = 1_000_000_000;

/** Set when the request sent `null` for a currency: the variant's price in it is removed. */
const REMOVED = Symbol('removed price');

@JSONSchema({
  title: 'ProductSyncPrice',
  description: 'Prices of a variant in one currency. Fields left out keep their stored value (new: 0, 0, null, null).',
})
export class ProductSyncPriceDto {
  @MayBeOmitted()
  @IsAmount()
  @JSONSchema({ description: 'Wholesale (B2B) price; default 0.' })
  sales_price?: number;

  @MayBeOmitted()
  @IsAmount()
  @JSONSchema({ description: 'Recommended retail (B2C, storefronts) price; default 0.' })
  rec_sales_price?: number;

  @IsOptional()
  @IsAmount()
  @JSONSchema({ description: 'Replaces sales_price on B2B when not null; default null.' })
  offer_price?: number | null;

  @IsOptional()
  @IsAmount()
  @JSONSchema({ description: 'Replaces rec_sales_price on B2C when not null (the variant is on sale); default null.' })
  b2c_offer_price?: number | null;

  [REMOVED]?: true;
}

/**
 * The `prices` object, keyed by currency, as a Map: class-validator validates a Map's values
 * and names each by its key, so a problem points at `/prices/EUR/sales_price`. A value that is
 * not an object is kept as it is (and fails `IsObject`); arrays become text so that they are not
 * walked as if their indexes were currencies.
 */
function toPriceMap({ obj, key }: { obj: Record<string, unknown>; key: string }): unknown {
  const raw = obj[key];
  if (raw === null || raw === undefined) return raw;
  if (typeof raw !== 'object' || Array.isArray(raw)) return Array.isArray(raw) ? 'array' : raw;
  return new Map(
    Object.entries(raw as Record<string, unknown>).map(([currency, price]) => {
      if (price === null) return [currency, Object.assign(new ProductSyncPriceDto(), { [REMOVED]: true })];
      if (typeof price === 'object' && !Array.isArray(price))
        return [currency, toDtoInstance(ProductSyncPriceDto, price as Record<string, unknown>)];
      return [currency, Array.isArray(price) ? 'array' : price];
    }),
  );
}

@JSONSchema({ title: 'ProductSyncDrop', description: 'A drop by drop_id or drop_code (one of them is required).' })
export class ProductSyncDropDto {
  @MayBeOmitted()
  @IsId()
  drop_id?: number;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  drop_code?: string;
}

@JSONSchema({ title: 'ProductSyncImage', description: 'An image to download and attach to the variant.' })
export class ProductSyncImageDto {
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  @JSONSchema({ description: 'Publicly available http(s) URL; a URL the brand already has is not downloaded again.' })
  url!: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  alt?: string | null;
}

@JSONSchema({
  title: 'ProductSyncCostPrice',
  description:
    'A cost price. cost_price_set_id names an existing set (in the same currency); cost_price_set_label the set with that label in the ' +
    "currency (created when missing); neither the currency's default set (created when missing).",
})
export class ProductSyncCostPriceDto {
  @IsString()
  @JSONSchema({ description: 'ISO 4217 code.' })
  currency!: string;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  cost_price_set_label?: string;

  @MayBeOmitted()
  @IsId()
  cost_price_set_id?: number;

  @IsAmount()
  cost_price!: number;
}

/**
 * The fields of a variant that the sync and the single variant writes of `/v10` share (every
 * field of a sync variant but its key `sku`, `delete` and `inventory`): declared once, so that
 * both validate them alike.
 */
@JSONSchema({
  title: 'ProductVariantFields',
  description:
    'The fields of a variant that the product sync and the /v10 variant writes share. Fields not sent keep their value.',
})
export class ProductVariantFieldsDto {
  @MayBeOmitted()
  @IsObject({ message: 'must be an object of attribute names to values, such as {"size": "M"}' })
  @JSONSchema({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Required for a new variant; on an update only the attributes sent change.',
  })
  attributes?: Record<string, string>;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  ean?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Cannot be sold on B2B; default false.' })
  archived?: boolean;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'false blocks B2C sale; default true.' })
  b2c_available?: boolean;

  // The overrides: null means "as the product".
  @IsOptional()
  @IsBoolean()
  make_to_order_b2b?: boolean | null;

  @IsOptional()
  @IsBoolean()
  make_to_order_b2c?: boolean | null;

  @IsOptional()
  @IsIn(WEIGHT_TYPES, { message: `must be one of ${WEIGHT_TYPES.join(', ')}` })
  weight_type?: WeightUnit | null;

  @IsOptional()
  @IsBoolean()
  noos?: boolean | null;

  @IsOptional()
  @IsDecimal(3, { min: 0, max: MAX_WEIGHT })
  weight?: number | null;

  @IsOptional()
  @IsString()
  @Matches(DATE, { message: 'must be a date written YYYY-MM-DD' })
  release_date?: string | null;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of custom fields' })
  @JSONSchema({
    type: 'object',
    description: 'Partial: keys sent replace, keys not sent stay, a key sent as null is removed.',
  })
  meta?: Record<string, unknown>;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object keyed by currency code, such as {"EUR": {"sales_price": 10}}' })
  @ValidateNested({ each: true })
  @Transform(toPriceMap, { toClassOnly: true })
  // A function replaces the generated schema, which would describe the map as an array (items).
  @JSONSchema(() => ({
    type: 'object',
    additionalProperties: { oneOf: [{ $ref: '#/components/schemas/ProductSyncPriceDto' }, { type: 'null' }] },
    description:
      'Keyed by ISO 4217 code; currencies not sent keep their prices, null removes the price in that currency.',
  }))
  // ReadonlyMap, not Map: the reflected type is then Object, so class-transformer leaves the
  // value to the @Transform above instead of building a Map of plain objects first.
  prices?: ReadonlyMap<string, ProductSyncPriceDto>;

  @ValidateIf((variant: ProductVariantFieldsDto) => variant.drops !== undefined && variant.drops !== null)
  @IsIn(SYNC_MODES, { message: `drops_sync_mode is required with drops and must be one of ${SYNC_MODES.join(', ')}` })
  drops_sync_mode?: SyncMode;

  @MayBeOmitted()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ProductSyncDropDto)
  drops?: ProductSyncDropDto[];

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ProductSyncImageDto)
  images?: ProductSyncImageDto[];

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ProductSyncCostPriceDto)
  cost_prices?: ProductSyncCostPriceDto[];
}

/** The variant's key: a sync matches variants by it, and the single writes never change it. */
export const MAX_SKU_LENGTH = 64;

// The mapping runs for every variant of a request, so it copies field by field
// instead of building intermediate objects. A field left undefined keeps its stored value.

/** An id-or-code reference (a drop, a locale) as the core takes it: the keys not sent are left out. */
export function reference(id: number | undefined, code: string | undefined): IdOrCode {
  const ref: IdOrCode = {};
  if (id !== undefined) ref.id = id;
  if (code !== undefined) ref.code = code;
  return ref;
}

function toPrices(prices: ReadonlyMap<string, ProductSyncPriceDto>): Record<string, VariantPriceInput | null> {
  const result: Record<string, VariantPriceInput | null> = {};
  for (const [currency, price] of prices) {
    if (price[REMOVED]) {
      result[currency] = null;
      continue;
    }
    const input: VariantPriceInput = {};
    if (price.sales_price !== undefined) input.salesPrice = price.sales_price;
    if (price.rec_sales_price !== undefined) input.recSalesPrice = price.rec_sales_price;
    if (price.offer_price !== undefined) input.offerPrice = price.offer_price;
    if (price.b2c_offer_price !== undefined) input.b2cOfferPrice = price.b2c_offer_price;
    result[currency] = input;
  }
  return result;
}

function toImage(image: ProductSyncImageDto): VariantImageInput {
  return image.alt !== undefined ? { url: image.url, alt: image.alt } : { url: image.url };
}

function toCostPrice(cost: ProductSyncCostPriceDto): VariantCostPriceInput {
  const input: VariantCostPriceInput = { currency: cost.currency, costPrice: cost.cost_price };
  if (cost.cost_price_set_id !== undefined) input.costPriceSetId = cost.cost_price_set_id;
  if (cost.cost_price_set_label !== undefined) input.costPriceSetLabel = cost.cost_price_set_label;
  return input;
}

/** The variant fields of the sync and the single writes, onto `item`; fields not sent stay undefined so that they keep their stored value. */
export function withVariantFields<T extends Partial<VariantSyncItem>>(item: T, variant: ProductVariantFieldsDto): T {
  if (variant.attributes !== undefined) item.attributes = variant.attributes;
  if (variant.ean !== undefined) item.ean = variant.ean;
  if (variant.archived !== undefined) item.archived = variant.archived;
  if (variant.b2c_available !== undefined) item.b2cAvailable = variant.b2c_available;
  if (variant.make_to_order_b2b !== undefined) item.makeToOrderB2b = variant.make_to_order_b2b;
  if (variant.make_to_order_b2c !== undefined) item.makeToOrderB2c = variant.make_to_order_b2c;
  if (variant.weight_type !== undefined) item.weightType = variant.weight_type;
  if (variant.noos !== undefined) item.noos = variant.noos;
  if (variant.weight !== undefined) item.weight = variant.weight;
  if (variant.release_date !== undefined) item.releaseDate = variant.release_date;
  if (variant.meta !== undefined) item.meta = variant.meta;
  if (variant.prices) item.prices = toPrices(variant.prices);
  if (variant.drops && variant.drops_sync_mode)
    item.drops = { mode: variant.drops_sync_mode, drops: variant.drops.map((d) => reference(d.drop_id, d.drop_code)) };
  if (variant.images) item.images = variant.images.map(toImage);
  if (variant.cost_prices) item.costPrices = variant.cost_prices.map(toCostPrice);
  return item;
}
