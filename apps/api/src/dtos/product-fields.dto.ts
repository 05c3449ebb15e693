import { Type } from 'class-transformer';
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
  LeadTimeType,
  ProductCategoryInput,
  ProductSupplierInput,
  ProductSyncItem,
  ProductTranslationInput,
  SyncMode,
  WeightUnit,
} from '@brand/core';
import { IsDecimal, IsId, IsInt32, MayBeOmitted } from './decorators';
import { DATE, MAX_WEIGHT, SYNC_MODES, WEIGHT_TYPES, reference } from './variant-fields.dto';

/**
 * The product-level fields that the product sync (`product-sync.dto.ts`) and the single product
 * writes of `/v10` (`product.v10.dto.ts`) share, with the product's limits and the mapping onto
 * the core's commands: declared once, so that both validate and map them alike. The variant's
 * fields are `variant-fields.dto.ts`.
 */

/** Variants per product in one request. */
export const MAX_VARIANTS_PER_PRODUCT = 1000;

const LEAD_TIME_TYPES: readonly LeadTimeType[] = ['weeks', 'days'];

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
  @JSONSchema({
    description: 'Create the (sub)category when it does not exist; default false (a missing category is a 422).',
  })
  create_if_missing?: boolean;
}

@JSONSchema({
  title: 'ProductSyncSupplier',
  description: 'A supplier link; each link sent is taken as a whole (fields left out get their defaults).',
})
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
  @IsInt32({ min: 0 })
  lead_time_from?: number | null;

  @IsOptional()
  @IsInt32({ min: 0 })
  lead_time_to?: number | null;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({
    description:
      "Label of a cost price set in the supplier's currency (created when missing); default: that currency's default set.",
  })
  cost_price_set?: string | null;
}

@JSONSchema({
  title: 'ProductSyncTranslation',
  description: 'A translation, upserted per locale (product_locale_id or product_locale_code).',
})
export class ProductSyncTranslationDto {
  @MayBeOmitted()
  @IsId()
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

/**
 * The product-level fields that the sync and the single product writes of `/v10` share (every
 * field of a sync item but its key `item_number`, `delete` and `variants`): declared once, so
 * that both validate them alike.
 */
@JSONSchema({
  title: 'ProductFields',
  description:
    'The product-level fields that the product sync and the /v10 product writes share. Fields not sent keep their value.',
})
export class ProductFieldsDto {
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
  @JSONSchema({
    type: 'object',
    description: 'Partial: keys sent replace, keys not sent stay, a key sent as null is removed.',
  })
  meta?: Record<string, unknown>;

  @IsOptional()
  @IsDecimal(3, { min: 0, max: MAX_WEIGHT })
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
  @IsInt32({ min: 1 })
  min_order_quantity?: number | null;

  @IsOptional()
  @IsInt32()
  custom_sort?: number | null;

  @MayBeOmitted()
  @IsBoolean()
  order_colli_only?: boolean;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt32({ each: true, min: 1, message: 'must be a list of whole numbers' })
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

  @ValidateIf((item: ProductFieldsDto) => item.categories !== undefined && item.categories !== null)
  @IsIn(SYNC_MODES, {
    message: `categories_sync_mode is required with categories and must be one of ${SYNC_MODES.join(', ')}`,
  })
  categories_sync_mode?: SyncMode;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ProductSyncCategoryDto)
  categories?: ProductSyncCategoryDto[];

  @ValidateIf((item: ProductFieldsDto) => item.suppliers !== undefined && item.suppliers !== null)
  @IsIn(SYNC_MODES, {
    message: `suppliers_sync_mode is required with suppliers and must be one of ${SYNC_MODES.join(', ')}`,
  })
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
}

/** The product's key: a sync matches products by it, and the single writes never change it. */
export const MAX_ITEM_NUMBER_LENGTH = 64;

// The mapping runs for every product of a request, so it copies field by field instead of
// building intermediate objects. A field left undefined keeps its stored value.

function toCategory(category: ProductSyncCategoryDto): ProductCategoryInput {
  const input: ProductCategoryInput = { topCategory: category.top_category };
  if (category.sub_category !== undefined) input.subCategory = category.sub_category;
  if (category.create_if_missing !== undefined) input.createIfMissing = category.create_if_missing;
  return input;
}

function toSupplier(link: ProductSyncSupplierDto): ProductSupplierInput {
  const input: ProductSupplierInput = { supplierNumber: link.supplier_number };
  if (link.primary !== undefined) input.primary = link.primary;
  if (link.lead_time_type !== undefined) input.leadTimeType = link.lead_time_type;
  if (link.lead_time_from !== undefined) input.leadTimeFrom = link.lead_time_from;
  if (link.lead_time_to !== undefined) input.leadTimeTo = link.lead_time_to;
  if (link.cost_price_set !== undefined) input.costPriceSet = link.cost_price_set;
  return input;
}

function toTranslation(translation: ProductSyncTranslationDto): ProductTranslationInput {
  const input: ProductTranslationInput = {
    locale: reference(translation.product_locale_id, translation.product_locale_code),
    name: translation.name,
  };
  if (translation.description !== undefined) input.description = translation.description;
  if (translation.meta_title !== undefined) input.metaTitle = translation.meta_title;
  if (translation.meta_description !== undefined) input.metaDescription = translation.meta_description;
  return input;
}

/** The product-level fields of the sync and the single writes, onto `item`; fields not sent stay undefined so that they keep their stored value. */
export function withProductFields<T extends Partial<ProductSyncItem>>(item: T, product: ProductFieldsDto): T {
  if (product.name !== undefined) item.name = product.name;
  if (product.description !== undefined) item.description = product.description;
  if (product.active !== undefined) item.active = product.active;
  if (product.make_to_order_b2b !== undefined) item.makeToOrderB2b = product.make_to_order_b2b;
  if (product.make_to_order_b2c !== undefined) item.makeToOrderB2c = product.make_to_order_b2c;
  if (product.meta !== undefined) item.meta = product.meta;
  if (product.weight !== undefined) item.weight = product.weight;
  if (product.weight_type !== undefined) item.weightType = product.weight_type;
  if (product.no_inventory !== undefined) item.noInventory = product.no_inventory;
  if (product.release_date !== undefined) item.releaseDate = product.release_date;
  if (product.noos !== undefined) item.noos = product.noos;
  if (product.min_order_quantity !== undefined) item.minOrderQuantity = product.min_order_quantity;
  if (product.custom_sort !== undefined) item.customSort = product.custom_sort;
  if (product.order_colli_only !== undefined) item.orderColliOnly = product.order_colli_only;
  if (product.colli !== undefined) item.colli = product.colli;
  if (product.url !== undefined) item.url = product.url;
  if (product.meta_title !== undefined) item.metaTitle = product.meta_title;
  if (product.meta_description !== undefined) item.metaDescription = product.meta_description;
  if (product.tags !== undefined) item.tags = product.tags;
  if (product.categories && product.categories_sync_mode)
    item.categories = { mode: product.categories_sync_mode, categories: product.categories.map(toCategory) };
  if (product.suppliers && product.suppliers_sync_mode)
    item.suppliers = { mode: product.suppliers_sync_mode, suppliers: product.suppliers.map(toSupplier) };
  if (product.translations) item.translations = product.translations.map(toTranslation);
  return item;
}
