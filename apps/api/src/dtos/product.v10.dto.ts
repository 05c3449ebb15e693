import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { NewProductInput, NewVariantInput, ProductChanges, VariantChanges } from '@brand/core';
import { MayBeOmitted, NotAccepted } from './decorators';
import {
  MAX_ITEM_NUMBER_LENGTH,
  MAX_VARIANTS_PER_PRODUCT,
  ProductFieldsDto,
  withProductFields,
} from './product-fields.dto';
import { InventoryChanges, ProductSyncInventoryDto, toInventoryChange } from './product-sync.dto';
import { MAX_SKU_LENGTH, ProductVariantFieldsDto, withVariantFields } from './variant-fields.dto';

/**
 * The bodies of the single product and variant writes of `/v10`. Each is a product sync item (or
 * sync variant) without what is not a field of the resource: the fields themselves are the ones
 * the sync declares too (`ProductFieldsDto`, `ProductVariantFieldsDto`, `InventoryChanges`), so
 * they are validated alike, and the business rules are the sync's own (the core runs a one-item
 * sync). A new variant takes `inventory`, its opening stock, as the sync variant does; `delete`,
 * and `inventory` on a change, are refused by name rather than ignored, since whoever sends them
 * expects them to act.
 */

const NO_DELETE = 'products and variants are deleted through POST /products/sync (delete: true)';
const NO_INVENTORY_CHANGE =
  "the stock of an existing variant moves through POST /products/sync (the variant's inventory: quantity or adjustment) and through orders, shipments and receipts; a new variant takes its opening stock in its create";

@JSONSchema({
  title: 'NewVariant',
  description:
    "A new variant: the fields of a product sync variant without delete, its inventory the opening stock. Needs attributes (at least one, with the names of the product's other variants) and a SKU no variant of the brand has.",
})
export class NewVariantDto extends ProductVariantFieldsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_SKU_LENGTH)
  sku!: string;

  @NotAccepted(NO_DELETE)
  delete?: unknown;

  @InventoryChanges()
  @JSONSchema({
    description:
      'The opening stock, as a product sync variant sends it: applied in the order sent, by the rules of POST /products/sync. Not for a product with no_inventory.',
  })
  inventory?: ProductSyncInventoryDto[];
}

/**
 * What a new product has beyond the shared fields; between them and the body for the order of
 * checks, as in the sync (`ProductSyncItemFieldsDto`): the item number first, the variants last.
 */
@JSONSchema({ title: 'NewProductFields' })
export class NewProductFieldsDto extends ProductFieldsDto {
  @NotAccepted(NO_DELETE)
  delete?: unknown;

  @MayBeOmitted()
  @IsArray()
  @ArrayMaxSize(MAX_VARIANTS_PER_PRODUCT)
  @ValidateNested({ each: true })
  @Type(() => NewVariantDto)
  @JSONSchema({ description: 'At least one.' })
  variants?: NewVariantDto[];
}

@JSONSchema({
  title: 'NewProduct',
  description:
    'A new product with its variants: the fields of a product sync item without delete. Needs a name and at least one variant; the item number must be free.',
})
export class CreateProductDto extends NewProductFieldsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_ITEM_NUMBER_LENGTH)
  item_number!: string;
}

@JSONSchema({
  title: 'ProductChanges',
  description:
    "Changes of a product's own fields, categories, suppliers and translations, as a product sync item makes them: fields not sent keep their value.",
})
export class ProductChangesDto extends ProductFieldsDto {
  @MayBeOmitted()
  @IsString()
  @MaxLength(MAX_ITEM_NUMBER_LENGTH)
  @JSONSchema({ description: "May be sent only unchanged: it is the product's key in the product sync." })
  item_number?: string;

  @NotAccepted(NO_DELETE)
  delete?: unknown;

  @NotAccepted(
    'variants are added with POST /v10/products/{id}/variants and changed one at a time with PATCH /v10/variants/{id}',
  )
  variants?: unknown;
}

@JSONSchema({
  title: 'VariantChanges',
  description:
    'Changes of a variant, as a product sync variant makes them: fields not sent keep their value; attributes, meta and prices merge; images sent are added.',
})
export class VariantChangesDto extends ProductVariantFieldsDto {
  @MayBeOmitted()
  @IsString()
  @MaxLength(MAX_SKU_LENGTH)
  @JSONSchema({ description: "May be sent only unchanged: it is the variant's key in the product sync." })
  sku?: string;

  @NotAccepted(NO_DELETE)
  delete?: unknown;

  @NotAccepted(NO_INVENTORY_CHANGE)
  inventory?: unknown;
}

/** The core's new variant of a validated body. */
export function toNewVariantInput(variant: NewVariantDto): NewVariantInput & { sku: string } {
  const input = withVariantFields<NewVariantInput & { sku: string }>({ sku: variant.sku }, variant);
  if (variant.inventory) input.inventory = variant.inventory.map(toInventoryChange);
  return input;
}

/** The core's new product of a validated body. */
export function toNewProductInput(product: CreateProductDto): NewProductInput {
  const input = withProductFields<NewProductInput>({ itemNumber: product.item_number }, product);
  if (product.variants) input.variants = product.variants.map(toNewVariantInput);
  return input;
}

/** The core's product changes of a validated body; fields not sent stay undefined so that they keep their value. */
export function toProductChanges(changes: ProductChangesDto): ProductChanges {
  const input = withProductFields<ProductChanges>({}, changes);
  if (changes.item_number !== undefined) input.itemNumber = changes.item_number;
  return input;
}

/** The core's variant changes of a validated body; fields not sent stay undefined so that they keep their value. */
export function toVariantChanges(changes: VariantChangesDto): VariantChanges {
  const input = withVariantFields<VariantChanges>({}, changes);
  if (changes.sku !== undefined) input.sku = changes.sku;
  return input;
}
