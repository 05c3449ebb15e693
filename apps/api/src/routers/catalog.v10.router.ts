import {
  VariantRef,
  VariantRelations,
  availableStockListDefinition,
  createDrop,
  createInventoryLocation,
  createProductLocale,
  createSubbrand,
  dropListDefinition,
  getProduct,
  getVariant,
  inventoryLocationListDefinition,
  listAvailableStock,
  listDrops,
  listInventoryLocations,
  listProductLocales,
  listProducts,
  listVariants,
  productListDefinition,
  productLocaleListDefinition,
  variantListDefinition,
} from '@brand/core';
import {
  CreateDropDto,
  CreateInventoryLocationDto,
  CreateProductLocaleDto,
  CreateSubbrandDto,
} from '../dtos/catalog-back-office.dto';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { Type, arrayOf, boolean, listOf, nullable, string, wrapped } from '../http/wire-schema';
import { DropSchema, presentDrop } from '../presenters/drop.presenter';
import { InventoryLocationSchema, presentInventoryLocation } from '../presenters/inventory-location.presenter';
import { ProductLocaleSchema, presentProductLocale } from '../presenters/product-locale.presenter';
import {
  ProductSchema,
  SubbrandSchema,
  VariantWithProductSchema,
  VariantWithProductWire,
  presentProduct,
  presentSubbrand,
} from '../presenters/product.presenter';
import { AvailableStockSchema, presentAvailableStock } from '../presenters/stock.presenter';
import { presentVariant } from '../presenters/variant.presenter';
import { mediaUrlFor } from './media.router';
import { pathId } from '../http/path-id';
import { RouterDeps } from './router-deps';

/** The key `GET /v10/inventory-available` answers with (see docs/decisions.md, "Catalog reads"). */
export const INVENTORY_AVAILABLE_KEY = 'inventory';

/** A listed (or fetched) variant with the includes of the variant list. */
function presentVariantRef(
  ref: VariantRef,
  includes: readonly string[],
  relations: VariantRelations,
): VariantWithProductWire {
  const record = relations.records.get(ref.variant.id) ?? { variant: ref.variant, prices: [], costPrices: [] };
  const wire: VariantWithProductWire = presentVariant(
    { ...record, variant: ref.variant },
    ref.itemNumber,
    includes,
    relations,
  );
  if (includes.includes('product')) {
    const found = relations.products.get(ref.variant.productId);
    wire.product = found ? presentProduct({ product: found, variants: [], suppliers: [], translations: [] }) : null;
  }
  return wire;
}

const PRODUCT_INCLUDES_NOTE = `Takes includes[] as the product list does: ${productListDefinition.includes.join(', ')}.`;
const VARIANT_INCLUDES_NOTE = `Takes includes[] as the variant list does: ${variantListDefinition.includes.join(', ')}.`;

/** Catalog and inventory reads of the current interface, and the catalog back office (drops, locations, locales, sub-brands). */
export function catalogV10Router(deps: RouterDeps & { mediaBaseUrl: string | null }): Surface<'current'> {
  return new Surface('v10-catalog', 'current', ['/v10'])
    .route({
      method: 'get',
      path: '/v10/products',
      summary: 'List products',
      description:
        'Products with their variants, prices, inventory, cost prices, categories, suppliers, translations and images as includes[] asks (a variants.* include shows the variants too).',
      tag: 'Catalog',
      scopes: ['catalog:read'],
      list: productListDefinition,
      status: 200,
      response: { description: 'A page of products', schema: listOf('products', ProductSchema) },
      handler: async ({ principal, req }) => {
        const result = await listProducts(deps, await listRequest(req, principal.brandId, deps.cursors));
        const mediaUrl = mediaUrlFor(req, deps.mediaBaseUrl);
        return listResponse('products', result, productListDefinition, deps.cursors, (product) =>
          presentProduct(product, result.query.includes, result.relations, mediaUrl),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/products/:id',
      summary: 'Get a product',
      description: PRODUCT_INCLUDES_NOTE,
      tag: 'Catalog',
      scopes: ['catalog:read'],
      includes: { resource: productListDefinition.resource, allowed: productListDefinition.includes },
      status: 200,
      response: { description: 'The product', schema: wrapped('product', ProductSchema) },
      handler: async ({ principal, params, includes, req }) => {
        const detail = await getProduct(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'product'),
          includes,
        });
        return {
          product: presentProduct(
            detail.product,
            detail.includes,
            detail.relations,
            mediaUrlFor(req, deps.mediaBaseUrl),
          ),
        };
      },
    })
    .route({
      method: 'get',
      path: '/v10/variants',
      summary: 'List variants',
      tag: 'Catalog',
      scopes: ['catalog:read'],
      list: variantListDefinition,
      status: 200,
      response: { description: 'A page of variants', schema: listOf('variants', VariantWithProductSchema) },
      handler: async ({ principal, req }) => {
        const result = await listVariants(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('variants', result, variantListDefinition, deps.cursors, (variant) =>
          presentVariantRef(variant, result.query.includes, result.relations),
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/variants/:id',
      summary: 'Get a variant',
      description: VARIANT_INCLUDES_NOTE,
      tag: 'Catalog',
      scopes: ['catalog:read'],
      includes: { resource: variantListDefinition.resource, allowed: variantListDefinition.includes },
      status: 200,
      response: { description: 'The variant', schema: wrapped('variant', VariantWithProductSchema) },
      handler: async ({ principal, params, includes }) => {
        const detail = await getVariant(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'variant'),
          includes,
        });
        return { variant: presentVariantRef(detail.variant, detail.includes, detail.relations) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/inventory-available',
      summary: 'List available inventory',
      description:
        'In stock and available (in stock minus reserved) per variant and inventory location. Cursor-only: page is refused (422) and no total is returned; ' +
        'walk with limit and cursor, or starting_after with the last row id.',
      tag: 'Inventory',
      scopes: ['catalog:read'],
      list: availableStockListDefinition,
      status: 200,
      response: {
        description: 'A page of stock rows',
        // Cursor-only: never a total.
        schema: Type.Object({
          [INVENTORY_AVAILABLE_KEY]: arrayOf(AvailableStockSchema),
          has_more: boolean(),
          next_cursor: nullable(string(), {
            description: 'Pass as cursor to get the next page; null when has_more is false',
          }),
        }),
      },
      handler: async ({ principal, req }) => {
        const result = await listAvailableStock(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse(
          INVENTORY_AVAILABLE_KEY,
          result,
          availableStockListDefinition,
          deps.cursors,
          presentAvailableStock,
        );
      },
    })
    .route({
      method: 'get',
      path: '/v10/inventory-locations',
      summary: 'List inventory locations',
      tag: 'Inventory',
      scopes: ['catalog:read'],
      list: inventoryLocationListDefinition,
      status: 200,
      response: {
        description: 'A page of inventory locations',
        schema: listOf('inventory_locations', InventoryLocationSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listInventoryLocations(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse(
          'inventory_locations',
          result,
          inventoryLocationListDefinition,
          deps.cursors,
          presentInventoryLocation,
        );
      },
    })
    .route({
      method: 'post',
      path: '/v10/inventory-locations',
      summary: 'Create an inventory location',
      description:
        "The brand's first location becomes its default (where stock goes when no location is named); later ones do not.",
      tag: 'Inventory',
      scopes: ['catalog:write'],
      body: CreateInventoryLocationDto,
      status: 201,
      response: {
        description: 'The new inventory location',
        schema: wrapped('inventory_location', InventoryLocationSchema),
      },
      handler: async ({ principal, body }) => {
        const location = await createInventoryLocation(deps, { brandId: principal.brandId, name: body.name });
        return { inventory_location: presentInventoryLocation(location) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/drops',
      summary: 'List drops',
      tag: 'Catalog',
      scopes: ['catalog:read'],
      list: dropListDefinition,
      status: 200,
      response: { description: 'A page of drops', schema: listOf('drops', DropSchema) },
      handler: async ({ principal, req }) => {
        const result = await listDrops(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('drops', result, dropListDefinition, deps.cursors, presentDrop);
      },
    })
    .route({
      method: 'post',
      path: '/v10/drops',
      summary: 'Create a drop',
      tag: 'Catalog',
      scopes: ['catalog:write'],
      body: CreateDropDto,
      status: 201,
      response: { description: 'The new drop', schema: wrapped('drop', DropSchema) },
      handler: async ({ principal, body }) => {
        const drop = await createDrop(deps, { brandId: principal.brandId, code: body.code, name: body.name });
        return { drop: presentDrop(drop) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/product-locales',
      summary: 'List product locales',
      tag: 'Catalog',
      scopes: ['catalog:read'],
      list: productLocaleListDefinition,
      status: 200,
      response: {
        description: 'A page of product locales',
        schema: listOf('product_locales', ProductLocaleSchema),
      },
      handler: async ({ principal, req }) => {
        const result = await listProductLocales(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('product_locales', result, productLocaleListDefinition, deps.cursors, presentProductLocale);
      },
    })
    .route({
      method: 'post',
      path: '/v10/product-locales',
      summary: 'Create a product locale',
      description:
        'A language products are translated into; the product sync names it by product_locale_id or product_locale_code.',
      tag: 'Catalog',
      scopes: ['catalog:write'],
      body: CreateProductLocaleDto,
      status: 201,
      response: {
        description: 'The new product locale',
        schema: wrapped('product_locale', ProductLocaleSchema),
      },
      handler: async ({ principal, body }) => {
        const locale = await createProductLocale(deps, {
          brandId: principal.brandId,
          code: body.code,
          name: body.name,
        });
        return { product_locale: presentProductLocale(locale) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/subbrands',
      summary: 'Create a sub-brand',
      tag: 'Catalog',
      scopes: ['catalog:write'],
      body: CreateSubbrandDto,
      status: 201,
      response: { description: 'The new sub-brand', schema: wrapped('subbrand', SubbrandSchema) },
      handler: async ({ principal, body }) => {
        const subbrand = await createSubbrand(deps, { brandId: principal.brandId, name: body.name });
        return { subbrand: presentSubbrand(subbrand) };
      },
    });
}
