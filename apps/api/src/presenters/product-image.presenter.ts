import { ProductImage, ProductImageAction, ProductImagesSyncResult } from '@brand/core';

/** Turns a blob key into the public URL the image is served at (`…/media/<key>`). */
export type MediaUrl = (blobKey: string) => string;

export interface ProductImageWire {
  id: number;
  /** Where the platform serves the image (public, cacheable). */
  url: string;
  source_url: string;
  existance_key: string | null;
  content_type: string;
  size_bytes: number;
  sort: number;
  sort_b2c: number | null;
  alt: string | null;
  filename: string | null;
  variant_ids: number[];
  created_at: string;
  updated_at: string;
}

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

/** One product of the image sync's answer: its images in request order with what happened to each. */
export function presentProductImagesSyncResult(result: ProductImagesSyncResult, mediaUrl: MediaUrl) {
  return {
    item_number: result.itemNumber,
    product_id: result.productId,
    use_sort_b2c: result.useSortB2c,
    images: result.images.map(({ image, action }): ProductImageWire & { action: ProductImageAction } => ({
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
