import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  IdOrCode,
  InventoryChangeInput,
  LeadTimeType,
  ProductCategoryInput,
  ProductSupplierInput,
  ProductSyncItem,
  ProductTranslationInput,
  SyncMode,
  VariantCostPriceInput,
  VariantImageInput,
  VariantPriceInput,
  VariantSyncItem,
  WeightUnit,
} from '@brand/core';
import { MayBeOmitted } from './decorators';

/**
 * `POST /products/sync`. The DTO checks JSON types, required fields and formats; the business
 * rules (does the supplier exist, may the variant be deleted, is the SKU another product's) are
 * the core's `syncProducts`. Unknown properties are ignored, as on every sync.
 */

/**
 * Products per request. A product carries its variants with prices, stock, images and cost
 * prices, so a request of 100 is already ~500 variants: one transaction of bounded size and
 * time (fewer items than the customer sync's 1000).
 */
export const MAX_PRODUCT_SYNC_ITEMS = 100;
/** Variants per product in one request. */
export const MAX_VARIANTS_PER_PRODUCT = 1000;

const SYNC_MODES: readonly SyncMode[] = ['replace', 'append'];
const WEIGHT_TYPES: readonly WeightUnit[] = ['g', 'kg'];
const LEAD_TIME_TYPES: readonly LeadTimeType[] = ['weeks', 'days'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONEY = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 } as const;
const MONEY_MESSAGE = { message: 'must be a number with at most 2 decimals' };

/** Set when the request sent `null` for a currency: the variant's price in it is removed. */
const REMOVED = Symbol('removed price');

@JSONSchema({ title: 'ProductSyncPrice', description: 'Prices of a variant in one currency. Fields left out keep their stored value (new: 0, 0, null, null).' })
export class ProductSyncPriceDto {
  @MayBeOmitted()
  @IsNumber(MONEY, MONEY_MESSAGE)
  @Min(0)
  @JSONSchema({ description: 'Wholesale (B2B) price; default 0.' })
  sales_price?: number;

  @MayBeOmitted()
  @IsNumber(MONEY, MONEY_MESSAGE)
  @Min(0)
  @JSONSchema({ description: 'Recommended retail (B2C, storefronts) price; default 0.' })
  rec_sales_price?: number;

  @IsOptional()
  @IsNumber(MONEY, MONEY_MESSAGE)
  @Min(0)
  @JSONSchema({ description: 'Replaces sales_price on B2B when not null; default null.' })
  offer_price?: number | null;

  @IsOptional()
  @IsNumber(MONEY, MONEY_MESSAGE)
  @Min(0)
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
      if (typeof price === 'object' && !Array.isArray(price)) return [currency, Object.assign(new ProductSyncPriceDto(), price)];
      return [currency, Array.isArray(price) ? 'array' : price];
    }),
  );
}

@JSONSchema({ title: 'ProductSyncDrop', description: 'A drop by drop_id or drop_code (one of them is required).' })
export class ProductSyncDropDto {
  @MayBeOmitted()
  @IsInt()
  @Min(1)
  drop_id?: number;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  drop_code?: string;
}

@JSONSchema({ title: 'ProductSyncInventoryChange', description: 'A stock change at a location: exactly one of quantity and adjustment.' })
export class ProductSyncInventoryDto {
  @MayBeOmitted()
  @IsInt()
  @Min(0)
  @JSONSchema({ description: 'Sets in stock at the location to this number.' })
  quantity?: number;

  @MayBeOmitted()
  @IsInt()
  @JSONSchema({ description: 'Adds to in stock at the location (e.g. 2 or -2); in stock never goes below 0.' })
  adjustment?: number;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Reason, recorded on the ledger row.' })
  text?: string | null;

  @MayBeOmitted()
  @IsInt()
  @Min(1)
  @JSONSchema({ description: "Default: the brand's default inventory location (created on first use)." })
  inventory_location_id?: number;
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
  @IsInt()
  @Min(1)
  cost_price_set_id?: number;

  @IsNumber(MONEY, MONEY_MESSAGE)
  @Min(0)
  cost_price!: number;
}

@JSONSchema({ title: 'ProductSyncVariant', description: 'One variant, matched by sku. Fields not sent keep their value.' })
export class ProductSyncVariantDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  sku!: string;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of attribute names to values, such as {"size": "M"}' })
  @JSONSchema({ type: 'object', additionalProperties: { type: 'string' }, description: 'Required for a new variant; on an update only the attributes sent change.' })
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

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'true deletes the variant; refused while orders or other data refer to it, and for the last variant of a product.' })
  delete?: boolean;

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
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 3 }, { message: 'must be a number with at most 3 decimals' })
  @Min(0)
  weight?: number | null;

  @IsOptional()
  @IsString()
  @Matches(DATE, { message: 'must be a date written YYYY-MM-DD' })
  release_date?: string | null;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of custom fields' })
  @JSONSchema({ type: 'object', description: 'Partial: keys sent replace, keys not sent stay, a key sent as null is removed.' })
  meta?: Record<string, unknown>;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object keyed by currency code, such as {"EUR": {"sales_price": 10}}' })
  @ValidateNested({ each: true })
  @Transform(toPriceMap, { toClassOnly: true })
  @JSONSchema({
    type: 'object',
    additionalProperties: { oneOf: [{ $ref: '#/components/schemas/ProductSyncPriceDto' }, { type: 'null' }] },
    description: 'Keyed by ISO 4217 code; currencies not sent keep their prices, null removes the price in that currency.',
  })
  prices?: Map<string, ProductSyncPriceDto>;

  @ValidateIf((variant: ProductSyncVariantDto) => variant.drops !== undefined && variant.drops !== null)
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
  @Type(() => ProductSyncInventoryDto)
  inventory?: ProductSyncInventoryDto[];

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

@JSONSchema({ title: 'ProductSyncCategory', description: 'A category by name; created only with create_if_missing.' })
export class ProductSyncCategoryDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  top_category!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'null or empty: the top category itself.' })
  sub_category?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Create the (sub)category when it does not exist; default false (a missing category is a 422).' })
  create_if_missing?: boolean;
}

@JSONSchema({ title: 'ProductSyncSupplier', description: 'A supplier link; each link sent is taken as a whole (fields left out get their defaults).' })
export class ProductSyncSupplierDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  supplier_number!: string;

  @MayBeOmitted()
  @IsBoolean()
  primary?: boolean;

  @MayBeOmitted()
  @IsIn(LEAD_TIME_TYPES, { message: `must be one of ${LEAD_TIME_TYPES.join(', ')}` })
  lead_time_type?: LeadTimeType;

  @IsOptional()
  @IsInt()
  @Min(0)
  lead_time_from?: number | null;

  @IsOptional()
  @IsInt()
  @Min(0)
  lead_time_to?: number | null;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({ description: "Label of a cost price set in the supplier's currency (created when missing); default: that currency's default set." })
  cost_price_set?: string | null;
}

@JSONSchema({ title: 'ProductSyncTranslation', description: 'A translation, upserted per locale (product_locale_id or product_locale_code).' })
export class ProductSyncTranslationDto {
  @MayBeOmitted()
  @IsInt()
  @Min(1)
  product_locale_id?: number;

  @MayBeOmitted()
  @IsString()
  @MinLength(1)
  @MaxLength(32)
  product_locale_code?: string;

  @IsString()
  @MaxLength(255)
  name!: string;

  @IsOptional()
  @IsString()
  description?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  meta_title?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  meta_description?: string | null;
}

@JSONSchema({ title: 'ProductSyncItem', description: 'One product, matched by item_number. Fields not sent keep their value.' })
export class ProductSyncItemDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  item_number!: string;

  @MayBeOmitted()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Required for a new product.' })
  name?: string;

  @IsOptional()
  @IsString()
  description?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Sellable; default true.' })
  active?: boolean;

  @MayBeOmitted()
  @IsBoolean()
  make_to_order_b2b?: boolean;

  @MayBeOmitted()
  @IsBoolean()
  make_to_order_b2c?: boolean;

  @MayBeOmitted()
  @IsObject({ message: 'must be an object of custom fields' })
  @JSONSchema({ type: 'object', description: 'Partial: keys sent replace, keys not sent stay, a key sent as null is removed.' })
  meta?: Record<string, unknown>;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 3 }, { message: 'must be a number with at most 3 decimals' })
  @Min(0)
  @JSONSchema({ description: 'In weight_type units, at most 3 decimals; null clears it.' })
  weight?: number | null;

  @MayBeOmitted()
  @IsIn(WEIGHT_TYPES, { message: `must be one of ${WEIGHT_TYPES.join(', ')}` })
  weight_type?: WeightUnit;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Digital goods: no stock is kept; a variant of such a product may not send inventory.' })
  no_inventory?: boolean;

  @IsOptional()
  @IsString()
  @Matches(DATE, { message: 'must be a date written YYYY-MM-DD' })
  release_date?: string | null;

  @MayBeOmitted()
  @IsBoolean()
  noos?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  min_order_quantity?: number | null;

  @IsOptional()
  @IsInt()
  custom_sort?: number | null;

  @MayBeOmitted()
  @IsBoolean()
  order_colli_only?: boolean;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true, message: 'must be a list of whole numbers' })
  @Min(1, { each: true, message: 'must be a list of whole numbers of at least 1' })
  colli?: number[];

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  meta_title?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  meta_description?: string | null;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true, message: 'must be a list of strings' })
  @MaxLength(255, { each: true })
  @JSONSchema({ description: "Replaces the product's tag set." })
  tags?: string[];

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'true deletes the product with its variants; refused while orders or other data refer to it.' })
  delete?: boolean;

  @ValidateIf((item: ProductSyncItemDto) => item.categories !== undefined && item.categories !== null)
  @IsIn(SYNC_MODES, { message: `categories_sync_mode is required with categories and must be one of ${SYNC_MODES.join(', ')}` })
  categories_sync_mode?: SyncMode;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ProductSyncCategoryDto)
  categories?: ProductSyncCategoryDto[];

  @ValidateIf((item: ProductSyncItemDto) => item.suppliers !== undefined && item.suppliers !== null)
  @IsIn(SYNC_MODES, { message: `suppliers_sync_mode is required with suppliers and must be one of ${SYNC_MODES.join(', ')}` })
  suppliers_sync_mode?: SyncMode;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ProductSyncSupplierDto)
  suppliers?: ProductSyncSupplierDto[];

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ProductSyncTranslationDto)
  translations?: ProductSyncTranslationDto[];

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(MAX_VARIANTS_PER_PRODUCT)
  @ValidateNested({ each: true })
  @Type(() => ProductSyncVariantDto)
  @JSONSchema({ description: 'Required (at least one) for a new product; variants not sent are left alone.' })
  variants?: ProductSyncVariantDto[];
}

@JSONSchema({ title: 'ProductSyncRequest' })
export class ProductSyncRequestDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'must contain at least one item' })
  @ArrayMaxSize(MAX_PRODUCT_SYNC_ITEMS, { message: `must contain at most ${MAX_PRODUCT_SYNC_ITEMS} items per request; split larger batches` })
  @ValidateNested({ each: true })
  @Type(() => ProductSyncItemDto)
  products!: ProductSyncItemDto[];
}

/** Copies the fields that were sent (undefined stays out, so the stored value is kept). */
function sent<T extends object>(target: T, values: { [K in keyof T]?: T[K] | undefined }): T {
  for (const [key, value] of Object.entries(values)) if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  return target;
}

function reference(id: number | undefined, code: string | undefined): IdOrCode {
  return sent<IdOrCode>({}, { id, code });
}

function toPrices(prices: Map<string, ProductSyncPriceDto>): Record<string, VariantPriceInput | null> {
  return Object.fromEntries(
    [...prices].map(([currency, price]) => [
      currency,
      price[REMOVED]
        ? null
        : sent<VariantPriceInput>({}, { salesPrice: price.sales_price, recSalesPrice: price.rec_sales_price, offerPrice: price.offer_price, b2cOfferPrice: price.b2c_offer_price }),
    ]),
  );
}

function toInventoryChange(change: ProductSyncInventoryDto): InventoryChangeInput {
  return sent<InventoryChangeInput>({}, { quantity: change.quantity, adjustment: change.adjustment, text: change.text, inventoryLocationId: change.inventory_location_id });
}

function toCostPrice(cost: ProductSyncCostPriceDto): VariantCostPriceInput {
  return sent<VariantCostPriceInput>(
    { currency: cost.currency, costPrice: cost.cost_price },
    { costPriceSetId: cost.cost_price_set_id, costPriceSetLabel: cost.cost_price_set_label },
  );
}

function toVariant(variant: ProductSyncVariantDto): VariantSyncItem {
  return sent<VariantSyncItem>(
    { sku: variant.sku },
    {
      attributes: variant.attributes,
      ean: variant.ean,
      archived: variant.archived,
      b2cAvailable: variant.b2c_available,
      delete: variant.delete,
      makeToOrderB2b: variant.make_to_order_b2b,
      makeToOrderB2c: variant.make_to_order_b2c,
      weightType: variant.weight_type,
      noos: variant.noos,
      weight: variant.weight,
      releaseDate: variant.release_date,
      meta: variant.meta,
      prices: variant.prices ? toPrices(variant.prices) : undefined,
      drops: variant.drops && variant.drops_sync_mode ? { mode: variant.drops_sync_mode, drops: variant.drops.map((d) => reference(d.drop_id, d.drop_code)) } : undefined,
      inventory: variant.inventory?.map(toInventoryChange),
      images: variant.images?.map((image) => sent<VariantImageInput>({ url: image.url }, { alt: image.alt })),
      costPrices: variant.cost_prices?.map(toCostPrice),
    },
  );
}

/** The core command for one validated item; fields not sent stay undefined so that they keep their stored value. */
export function toProductSyncItem(item: ProductSyncItemDto): ProductSyncItem {
  return sent<ProductSyncItem>(
    { itemNumber: item.item_number },
    {
      name: item.name,
      description: item.description,
      active: item.active,
      makeToOrderB2b: item.make_to_order_b2b,
      makeToOrderB2c: item.make_to_order_b2c,
      meta: item.meta,
      weight: item.weight,
      weightType: item.weight_type,
      noInventory: item.no_inventory,
      releaseDate: item.release_date,
      noos: item.noos,
      minOrderQuantity: item.min_order_quantity,
      customSort: item.custom_sort,
      orderColliOnly: item.order_colli_only,
      colli: item.colli,
      url: item.url,
      metaTitle: item.meta_title,
      metaDescription: item.meta_description,
      tags: item.tags,
      delete: item.delete,
      categories:
        item.categories && item.categories_sync_mode
          ? {
              mode: item.categories_sync_mode,
              categories: item.categories.map((c) =>
                sent<ProductCategoryInput>({ topCategory: c.top_category }, { subCategory: c.sub_category, createIfMissing: c.create_if_missing }),
              ),
            }
          : undefined,
      suppliers:
        item.suppliers && item.suppliers_sync_mode
          ? {
              mode: item.suppliers_sync_mode,
              suppliers: item.suppliers.map((s) =>
                sent<ProductSupplierInput>({ supplierNumber: s.supplier_number }, {
                  primary: s.primary,
                  leadTimeType: s.lead_time_type,
                  leadTimeFrom: s.lead_time_from,
                  leadTimeTo: s.lead_time_to,
                  costPriceSet: s.cost_price_set,
                }),
              ),
            }
          : undefined,
      translations: item.translations?.map((t) =>
        sent<ProductTranslationInput>({ locale: reference(t.product_locale_id, t.product_locale_code), name: t.name }, {
          description: t.description,
          metaTitle: t.meta_title,
          metaDescription: t.meta_description,
        }),
      ),
      variants: item.variants?.map(toVariant),
    },
  );
}
