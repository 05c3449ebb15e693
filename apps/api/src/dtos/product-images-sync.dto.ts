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
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  MAX_PRODUCTS_PER_IMAGE_SYNC,
  ProductImageSyncInput,
  ProductImagesSyncCommand,
  ProductImagesSyncItem,
} from '@brand/core';
import { IsInt32, MayBeOmitted, NotTogetherWith } from './decorators';

/** Images per product in one request: a fashion product has a handful, a lookbook a few dozen. */
export const MAX_IMAGES_PER_PRODUCT = 100;

/** An object of non-empty strings (`{ "color": "BLK" }`). */
function IsAttributeCodeMap(): PropertyDecorator {
  return ValidateBy({
    name: 'isAttributeCodeMap',
    validator: {
      validate: (value: unknown) =>
        value === null ||
        (typeof value === 'object' &&
          !Array.isArray(value) &&
          Object.values(value).every((code) => typeof code === 'string' && code.trim() !== '')),
      defaultMessage: () =>
        'must be an object of attribute name to attribute code (non-empty strings), such as {"color": "BLK"}',
    },
  });
}

@JSONSchema({
  title: 'ProductImageSyncImage',
  description: 'One image of a product; the list of a product is its complete set of images.',
})
export class ProductImageSyncImageDto {
  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  @JSONSchema({
    description:
      'Publicly available http(s) URL of the image (JPEG, PNG, GIF, WebP or AVIF); downloaded unless already received.',
  })
  url!: string;

  @IsInt32()
  sort!: number;

  @IsOptional()
  @IsInt32()
  @JSONSchema({ description: 'Order on B2C channels when the product has use_sort_b2c; default null.' })
  sort_b2c?: number | null;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @JSONSchema({
    description:
      'Decides instead of the URL whether the image exists (for expiring URLs); a known key is not downloaded again.',
  })
  existance_key?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  alt?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  filename?: string | null;

  @IsOptional()
  @IsAttributeCodeMap()
  // A function replaces the generated schema, which for a custom constraint would point at the reflected type (Object).
  @JSONSchema(() => ({
    type: ['object', 'null'],
    additionalProperties: { type: 'string', minLength: 1 },
    description:
      'Attribute name → attribute code; attaches the image to every variant of the product whose attributes hold all pairs ' +
      '(names and codes compare case-insensitively). Absent, null or empty: the image belongs to the whole product.',
  }))
  attach_to_variants_matching_attribute_code?: Record<string, string> | null;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({
    description:
      'When true and no variant matches, a new image is not created (it is listed under skipped_images); an existing one is kept. Default false.',
  })
  skip_if_no_variant_matches_attribute_code?: boolean;
}

@JSONSchema({
  title: 'ProductImagesSyncItem',
  description: 'One product, by item_number, with all of its images: images not sent are deleted.',
})
export class ProductImagesSyncItemDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @JSONSchema({ description: 'Item number of an existing product.' })
  item_number!: string;

  @MayBeOmitted()
  @IsBoolean()
  @JSONSchema({ description: 'Orders the images by sort_b2c on B2C channels; absent keeps the current setting.' })
  use_sort_b2c?: boolean;

  @IsArray()
  @ArrayMaxSize(MAX_IMAGES_PER_PRODUCT, { message: `must contain at most ${MAX_IMAGES_PER_PRODUCT} images` })
  @ValidateNested({ each: true })
  @Type(() => ProductImageSyncImageDto)
  @JSONSchema({ description: "The complete set of the product's images; an empty list deletes them all." })
  images!: ProductImageSyncImageDto[];
}

const PRODUCTS_MESSAGE = {
  array: 'must be an array of products; send the products under product_images (or products)',
  min: 'must contain at least one product',
  max: `must contain at most ${MAX_PRODUCTS_PER_IMAGE_SYNC} products per request; split larger batches`,
};

/** The spec names the list `product_images` and its sample body `products`: either is accepted, not both. */
@JSONSchema({
  title: 'ProductImagesSyncRequest',
  description: 'Send the products under product_images or under products (not both).',
})
export class ProductImagesSyncRequestDto {
  @ValidateIf((body: ProductImagesSyncRequestDto) => body.products === undefined || body.product_images !== undefined)
  @IsArray({ message: PRODUCTS_MESSAGE.array })
  @ArrayMinSize(1, { message: PRODUCTS_MESSAGE.min })
  @ArrayMaxSize(MAX_PRODUCTS_PER_IMAGE_SYNC, { message: PRODUCTS_MESSAGE.max })
  @ValidateNested({ each: true })
  @Type(() => ProductImagesSyncItemDto)
  product_images?: ProductImagesSyncItemDto[];

  @MayBeOmitted()
  @NotTogetherWith('product_images')
  @IsArray({ message: PRODUCTS_MESSAGE.array })
  @ArrayMinSize(1, { message: PRODUCTS_MESSAGE.min })
  @ArrayMaxSize(MAX_PRODUCTS_PER_IMAGE_SYNC, { message: PRODUCTS_MESSAGE.max })
  @ValidateNested({ each: true })
  @Type(() => ProductImagesSyncItemDto)
  @JSONSchema({ description: "The same as product_images, under the key of the spec's sample body." })
  products?: ProductImagesSyncItemDto[];
}

function toImageInput(image: ProductImageSyncImageDto): ProductImageSyncInput {
  const input: ProductImageSyncInput = { url: image.url, sort: image.sort };
  if (image.sort_b2c !== undefined) input.sortB2c = image.sort_b2c;
  if (image.existance_key !== undefined) input.existanceKey = image.existance_key;
  if (image.alt !== undefined) input.alt = image.alt;
  if (image.filename !== undefined) input.filename = image.filename;
  if (image.attach_to_variants_matching_attribute_code !== undefined)
    input.attachToVariantsMatching = image.attach_to_variants_matching_attribute_code;
  if (image.skip_if_no_variant_matches_attribute_code !== undefined)
    input.skipIfNoVariantMatches = image.skip_if_no_variant_matches_attribute_code;
  return input;
}

function toItem(item: ProductImagesSyncItemDto): ProductImagesSyncItem {
  const command: ProductImagesSyncItem = { itemNumber: item.item_number, images: item.images.map(toImageInput) };
  if (item.use_sort_b2c !== undefined) command.useSortB2c = item.use_sort_b2c;
  return command;
}

/** The core command for a validated body, with the list key it was sent under (for error pointers). */
export function toProductImagesSyncCommand(
  brandId: number,
  body: ProductImagesSyncRequestDto,
): ProductImagesSyncCommand {
  const listKey = body.products !== undefined ? 'products' : 'product_images';
  return { brandId, listKey, products: (body.products ?? body.product_images ?? []).map(toItem) };
}
