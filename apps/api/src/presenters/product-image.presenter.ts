import { ProductImage, ProductImageAction, ProductImagesSyncResult } from '@brand/core';
import {
  Static,
  Type,
  arrayOf,
  boolean,
  component,
  dateTime,
  integer,
  nullable,
  oneOfValues,
  string,
} from '../http/wire-schema';
import { IMAGE_TYPES } from '../infrastructure/image-types';

/** Turns a blob key into the public URL the image is served at (`…/media/<key>`). */
export type MediaUrl = (blobKey: string) => string;

const productImageProperties = {
  id: integer(),
  // Public and cacheable.
  url: Type.String({
    format: 'uri',
    description: 'Public URL the platform serves the image at (GET /media/…, no token needed)',
  }),
  source_url: string('The URL the image was downloaded from'),
  existance_key: nullable(string()),
  content_type: string(),
  size_bytes: integer(),
  sort: integer(),
  sort_b2c: nullable(integer()),
  alt: nullable(string()),
  filename: nullable(string()),
  variant_ids: arrayOf(integer(), 'Variants the image is attached to; empty: the whole product'),
  created_at: dateTime(),
  updated_at: dateTime(),
};

/** As the image sync shows an image (`presentProductImage`), without its `action`. */
export const ProductImageSchema = component('ProductImage', Type.Object(productImageProperties));
export type ProductImageWire = Static<typeof ProductImageSchema>;

export function presentProductImage(image: ProductImage, mediaUrl: MediaUrl): ProductImageWire {
  return {
    id: image.id,
    url: mediaUrl(image.blobKey),
    source_url: image.sourceUrl,
    existance_key: image.existanceKey,
    content_type: image.contentType,
    size_bytes: image.sizeBytes,
    sort: image.sort,
    sort_b2c: image.sortB2c,
    alt: image.alt,
    filename: image.filename,
    variant_ids: image.variantIds,
    created_at: image.createdAt,
    updated_at: image.updatedAt,
  };
}

/** An image of the image sync's answer: what happened to it; its type is one the sync accepts for download. */
export const SyncedProductImageSchema = Type.Object({
  ...productImageProperties,
  content_type: oneOfValues(IMAGE_TYPES.map((type) => type.contentType)),
  action: oneOfValues<ProductImageAction>(['created', 'updated', 'unchanged']),
});
export type SyncedProductImageWire = Static<typeof SyncedProductImageSchema>;

/** One product of the image sync's answer. */
export const ProductImagesSyncResultSchema = Type.Object({
  item_number: string(),
  product_id: integer(),
  use_sort_b2c: boolean(),
  images: arrayOf(SyncedProductImageSchema, "The product's images after the sync, in request order"),
  skipped_images: arrayOf(
    Type.Object({ index: integer(), url: string(), existance_key: nullable(string()) }),
    'Images not created because they matched no variant and asked to be skipped then',
  ),
  deleted_image_ids: arrayOf(integer()),
});
export type ProductImagesSyncResultWire = Static<typeof ProductImagesSyncResultSchema>;

/** One product of the image sync's answer: its images in request order with what happened to each. */
export function presentProductImagesSyncResult(
  result: ProductImagesSyncResult,
  mediaUrl: MediaUrl,
): ProductImagesSyncResultWire {
  return {
    item_number: result.itemNumber,
    product_id: result.productId,
    use_sort_b2c: result.useSortB2c,
    images: result.images.map(({ image, action }) => ({
      ...presentProductImage(image, mediaUrl),
      action,
    })),
    skipped_images: result.skippedImages.map((skipped) => ({
      index: skipped.index,
      url: skipped.url,
      existance_key: skipped.existanceKey,
    })),
    deleted_image_ids: result.deletedImageIds,
  };
}
