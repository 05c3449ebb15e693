import { Request } from 'express';
import { BlobStore, DomainError, syncProductImages } from '@brand/core';
import { ProductImagesSyncRequestDto, toProductImagesSyncCommand } from '../dtos/product-images-sync.dto';
import { JsonSchema, Surface } from '../http/route';
import { ImageServices } from '../infrastructure/image-services';
import { isBlobKey } from '../infrastructure/local-folder-blob-store';
import { MediaUrl, presentProductImagesSyncResult } from '../presenters/product-image.presenter';
import { RouterDeps } from './router-deps';

/** Where stored images are served; the rest of the path is the blob key. */
export const MEDIA_PREFIX = '/media';

const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

const productImageSchema: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'url',
    'source_url',
    'existance_key',
    'content_type',
    'size_bytes',
    'sort',
    'sort_b2c',
    'alt',
    'filename',
    'variant_ids',
    'created_at',
    'updated_at',
    'action',
  ],
  properties: {
    id: { type: 'integer' },
    url: {
      type: 'string',
      format: 'uri',
      description: 'Public URL the platform serves the image at (GET /media/…, no token needed)',
    },
    source_url: { type: 'string', description: 'The URL the image was downloaded from' },
    existance_key: nullable('string'),
    content_type: { type: 'string', enum: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'] },
    size_bytes: { type: 'integer' },
    sort: { type: 'integer' },
    sort_b2c: nullable('integer'),
    alt: nullable('string'),
    filename: nullable('string'),
    variant_ids: {
      type: 'array',
      items: { type: 'integer' },
      description: 'Variants the image is attached to; empty: the whole product',
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    action: { type: 'string', enum: ['created', 'updated', 'unchanged'] },
  },
};

const syncResponseSchema: JsonSchema = {
  type: 'object',
  required: ['products'],
  properties: {
    products: {
      type: 'array',
      items: {
        type: 'object',
        required: ['item_number', 'product_id', 'use_sort_b2c', 'images', 'skipped_images', 'deleted_image_ids'],
        properties: {
          item_number: { type: 'string' },
          product_id: { type: 'integer' },
          use_sort_b2c: { type: 'boolean' },
          images: {
            type: 'array',
            items: productImageSchema,
            description: "The product's images after the sync, in request order",
          },
          skipped_images: {
            type: 'array',
            description: 'Images not created because they matched no variant and asked to be skipped then',
            items: {
              type: 'object',
              required: ['index', 'url', 'existance_key'],
              properties: { index: { type: 'integer' }, url: { type: 'string' }, existance_key: nullable('string') },
            },
          },
          deleted_image_ids: { type: 'array', items: { type: 'integer' } },
        },
      },
    },
  },
};

/** Public image URLs: on the configured origin, else on the origin the request came in on. */
export function mediaUrlFor(req: Request, mediaBaseUrl: string | null): MediaUrl {
  const base = mediaBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  return (blobKey) => `${base}${MEDIA_PREFIX}/${blobKey}`;
}

/** `POST /products/images/sync`: replaces each product's images with the set sent, downloading what is new. */
export function productImagesRouter(
  deps: RouterDeps & { images: ImageServices; mediaBaseUrl: string | null },
): Surface<'current'> {
  return new Surface('product-images', 'current', ['/products/images/sync']).route({
    method: 'post',
    path: '/products/images/sync',
    summary: 'Sync product images',
    description:
      `Sets the complete image list of up to 10 products (by item_number): images not sent are deleted. An image is the same ` +
      `image as a stored one when its existance_key matches (when sent) or else its URL; a URL or existance key the brand ` +
      `already has is not downloaded again. Downloads are refused for non-http(s) URLs, private or internal addresses, ` +
      `non-image content (SVG included), images above the size limit and slow servers. The request is all or nothing: ` +
      `a failed download or unknown item number is a 422 naming the field, and nothing is written.`,
    tag: 'Sync',
    scopes: ['catalog:write'],
    body: ProductImagesSyncRequestDto,
    status: 200,
    response: {
      description: "Each product's images after the sync, and the ids of the deleted ones",
      schema: syncResponseSchema,
    },
    handler: async ({ principal, body, req }) => {
      const results = await syncProductImages(
        { uow: deps.uow, clock: deps.clock, fetcher: deps.images.fetcher, blobs: deps.images.blobs },
        toProductImagesSyncCommand(principal.brandId, body),
      );
      const mediaUrl = mediaUrlFor(req, deps.mediaBaseUrl);
      return { products: results.map((result) => presentProductImagesSyncResult(result, mediaUrl)) };
    },
  });
}

/** One year: a key is the hash of its bytes, so what is behind a URL never changes. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * `GET /media/<key>`: the stored images, without a token (storefronts and browsers load them
 * directly; keys are content hashes that cannot be guessed or enumerated). Served with the stored
 * type, `nosniff` and a sandboxing CSP (so no stored file can run as a page of this origin), and
 * cached for a year.
 */
export function mediaRouter(deps: { blobs: BlobStore }): Surface<'none'> {
  return new Surface('media', 'none', [MEDIA_PREFIX]).route({
    method: 'get',
    path: `${MEDIA_PREFIX}/*key`,
    summary: 'A stored image',
    description: 'The bytes of an image stored by an image sync, under the URL the sync answered with. Needs no token.',
    tag: 'Media',
    scopes: [],
    status: 200,
    response: {
      description:
        'The image bytes, with their Content-Type (image/jpeg, image/png, image/gif, image/webp or image/avif)',
    },
    handler: async ({ params, req, res }) => {
      const raw = (params as Record<string, string | string[]>)['key'];
      const key = Array.isArray(raw) ? raw.join('/') : (raw ?? '');
      const image = isBlobKey(key) ? await deps.blobs.get(key) : null;
      if (!image) throw DomainError.notFound('image', key);
      // The key names the bytes' SHA-256, so it is a strong validator as it stands.
      const etag = `"${key.slice(key.lastIndexOf('/') + 1)}"`;
      res.setHeader('Cache-Control', CACHE_CONTROL);
      res.setHeader('ETag', etag);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Access-Control-Allow-Origin', '*');
      const cached = (req.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
      if (cached.includes(etag) || cached.includes('*')) {
        res.status(304).end();
        return undefined;
      }
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Content-Length', String(image.bytes.byteLength));
      res.status(200).end(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
      return undefined;
    },
  });
}
