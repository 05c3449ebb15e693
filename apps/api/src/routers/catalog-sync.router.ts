import { syncProducts } from '@brand/core';
import { ProductSyncRequestDto, MAX_PRODUCT_SYNC_ITEMS, toProductSyncItem } from '../dtos/product-sync.dto';
import { JsonSchema, Surface } from '../http/route';
import { presentProductSyncOutcome } from '../presenters/product-sync.presenter';
import { RouterDeps } from './router-deps';

const ACTIONS = ['created', 'updated', 'unchanged', 'deleted', 'absent'];

const outcomeSchema = (key: string): JsonSchema => ({
  type: 'object',
  required: [key, 'id', 'action'],
  properties: {
    [key]: { type: 'string' },
    id: { type: ['integer', 'null'], description: 'null when a delete found nothing to delete' },
    action: { type: 'string', enum: ACTIONS },
  },
});

const productSyncResponseSchema: JsonSchema = {
  type: 'object',
  required: ['products'],
  properties: {
    products: {
      type: 'array',
      items: {
        ...outcomeSchema('item_number'),
        required: ['item_number', 'id', 'action', 'variants'],
        properties: {
          ...(outcomeSchema('item_number').properties as Record<string, JsonSchema>),
          variants: {
            type: 'array',
            description: 'Each variant the item named, in request order (for a deleted product: the variants it had)',
            items: outcomeSchema('sku'),
          },
        },
      },
    },
  },
};

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
      schema: productSyncResponseSchema,
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
