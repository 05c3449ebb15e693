import { syncProductImages } from '@brand/core';
import { ProductImagesSyncRequestDto, toProductImagesSyncCommand } from '../dtos/product-images-sync.dto';
import { Surface } from '../http/route';
import { Type, arrayOf } from '../http/wire-schema';
import { ImageServices } from '../infrastructure/image-services';
import { ProductImagesSyncResultSchema, presentProductImagesSyncResult } from '../presenters/product-image.presenter';
import { mediaUrlFor } from './media.router';
import { RouterDeps } from './router-deps';

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
      schema: Type.Object({ products: arrayOf(ProductImagesSyncResultSchema) }),
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
