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
import { InventoryChangeInput, ProductSyncItem, VariantSyncItem } from '@brand/core';
import { IsId, IsInt32, MayBeOmitted } from './decorators';
import {
  MAX_ITEM_NUMBER_LENGTH,
  MAX_VARIANTS_PER_PRODUCT,
  ProductFieldsDto,
  withProductFields,
} from './product-fields.dto';
import { MAX_SKU_LENGTH, ProductVariantFieldsDto, withVariantFields } from './variant-fields.dto';

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

/** Stock changes per variant and request. */
const MAX_INVENTORY_CHANGES = 100;

@JSONSchema({
  title: 'ProductSyncInventoryChange',
  description: 'A stock change at a location: exactly one of quantity and adjustment.',
})
export class ProductSyncInventoryDto {
  @MayBeOmitted()
  @IsInt32({ min: 0 })
  @JSONSchema({ description: 'Sets in stock at the location to this number.' })
  quantity?: number;

  @MayBeOmitted()
  @IsInt32()
  @JSONSchema({ description: 'Adds to in stock at the location (e.g. 2 or -2); in stock never goes below 0.' })
  adjustment?: number;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  @JSONSchema({ description: 'Reason, recorded on the ledger row.' })
  text?: string | null;

  @MayBeOmitted()
  @IsId()
  @JSONSchema({ description: "Default: the brand's default inventory location (created on first use)." })
  inventory_location_id?: number;
}

/**
 * `inventory`: a variant's stock changes, applied in the order sent. Declared once for the sync
 * variant and the new variant of `/v10` (`NewVariantDto`), so both validate and document it alike.
 */
export function InventoryChanges(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    // In the order stacked decorators apply (the lowest first), so that problems keep their order.
    Type(() => ProductSyncInventoryDto)(target, propertyName);
    ValidateNested({ each: true })(target, propertyName);
    ArrayMaxSize(MAX_INVENTORY_CHANGES)(target, propertyName);
    IsArray()(target, propertyName);
    MayBeOmitted()(target, propertyName);
  };
}

/**
 * What a sync variant has beyond the shared fields. It sits between them and the variant because
 * class-validator checks a class's own fields before the ones it inherits: so the SKU is still
 * checked first, and a sync's problems keep the order they had.
 */
@JSONSchema({ title: 'ProductSyncVariantFields' })
export class ProductSyncVariantFieldsDto extends ProductVariantFieldsDto {
  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({
    description:
      'true deletes the variant; refused while orders or other data refer to it, and for the last variant of a product.',
  })
  delete?: boolean;

  @InventoryChanges()
  inventory?: ProductSyncInventoryDto[];
}

@JSONSchema({
  title: 'ProductSyncVariant',
  description: 'One variant, matched by sku. Fields not sent keep their value.',
})
export class ProductSyncVariantDto extends ProductSyncVariantFieldsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_SKU_LENGTH)
  sku!: string;
}

/**
 * What a sync item has beyond the shared fields; between them and the item for the order of
 * checks (see `ProductSyncVariantFieldsDto`): the item number first, the variants last.
 */
@JSONSchema({ title: 'ProductSyncItemFields' })
export class ProductSyncItemFieldsDto extends ProductFieldsDto {
  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({
    description: 'true deletes the product with its variants; refused while orders or other data refer to it.',
  })
  delete?: boolean;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(MAX_VARIANTS_PER_PRODUCT)
  @ValidateNested({ each: true })
  @Type(() => ProductSyncVariantDto)
  @JSONSchema({ description: 'Required (at least one) for a new product; variants not sent are left alone.' })
  variants?: ProductSyncVariantDto[];
}

@JSONSchema({
  title: 'ProductSyncItem',
  description: 'One product, matched by item_number. Fields not sent keep their value.',
})
export class ProductSyncItemDto extends ProductSyncItemFieldsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_ITEM_NUMBER_LENGTH)
  item_number!: string;
}

@JSONSchema({ title: 'ProductSyncRequest' })
export class ProductSyncRequestDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'must contain at least one item' })
  @ArrayMaxSize(MAX_PRODUCT_SYNC_ITEMS, {
    message: `must contain at most ${MAX_PRODUCT_SYNC_ITEMS} items per request; split larger batches`,
  })
  @ValidateNested({ each: true })
  @Type(() => ProductSyncItemDto)
  products!: ProductSyncItemDto[];
}

// The mapping runs for every product and variant of a request, so it copies field by field
// instead of building intermediate objects. A field left undefined keeps its stored value.

/** The core's stock change of a validated one (the sync variant's and the new variant's `inventory`). */
export function toInventoryChange(change: ProductSyncInventoryDto): InventoryChangeInput {
  const input: InventoryChangeInput = {};
  if (change.quantity !== undefined) input.quantity = change.quantity;
  if (change.adjustment !== undefined) input.adjustment = change.adjustment;
  if (change.text !== undefined) input.text = change.text;
  if (change.inventory_location_id !== undefined) input.inventoryLocationId = change.inventory_location_id;
  return input;
}

function toVariant(variant: ProductSyncVariantDto): VariantSyncItem {
  const item = withVariantFields<VariantSyncItem>({ sku: variant.sku }, variant);
  if (variant.delete !== undefined) item.delete = variant.delete;
  if (variant.inventory) item.inventory = variant.inventory.map(toInventoryChange);
  return item;
}

/** The core command for one validated item; fields not sent stay undefined so that they keep their stored value. */
export function toProductSyncItem(product: ProductSyncItemDto): ProductSyncItem {
  const item = withProductFields<ProductSyncItem>({ itemNumber: product.item_number }, product);
  if (product.delete !== undefined) item.delete = product.delete;
  if (product.variants) item.variants = product.variants.map(toVariant);
  return item;
}
