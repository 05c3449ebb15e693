import { syncProducts } from '@brand/core';
import { ProductSyncRequestDto, MAX_PRODUCT_SYNC_ITEMS, toProductSyncItem } from '../dtos/product-sync.dto';
import { Surface } from '../http/route';
import { Type, arrayOf } from '../http/wire-schema';
import { ProductSyncOutcomeSchema, presentProductSyncOutcome } from '../presenters/product-sync.presenter';
import { RouterDeps } from './router-deps';

/**
 * The product sync, a route group of the sync interface (`POST /products/sync`): thin — the DTO
 * checks the JSON, `syncProducts` does the rest.
 */
export function catalogSyncRouter(deps: RouterDeps): Surface<'current'> {
  return new Surface('sync', 'current', ['/products/sync']).route({
    method: 'post',
    path: '/products/sync',
    summary: 'Sync products',
    description:
      `Creates or updates products matched by item_number and their variants matched by sku, or deletes them (delete: true). ` +
      `At most ${MAX_PRODUCT_SYNC_ITEMS} products per request. Images are downloaded before anything is written (a URL the ` +
      `brand already has is not downloaded again). The request is all or nothing: if any item is invalid nothing is written ` +
      `and every problem is reported with its JSON pointer (/products/2/variants/0/prices/EUR/sales_price).`,
    tag: 'Sync',
    scopes: ['catalog:write'],
    body: ProductSyncRequestDto,
    status: 200,
    response: {
      description: 'What happened to each product and each variant it named, in request order',
      schema: Type.Object({ products: arrayOf(ProductSyncOutcomeSchema) }),
    },
    handler: async ({ principal, body }) => {
      const outcomes = await syncProducts(
        { uow: deps.uow, clock: deps.clock, images: deps.images },
        { brandId: principal.brandId, userId: principal.userId, products: body.products.map(toProductSyncItem) },
      );
      return { products: outcomes.map(presentProductSyncOutcome) };
    },
  });
}
