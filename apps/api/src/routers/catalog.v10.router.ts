import {
  ProductDetail,
  VariantRef,
  VariantRelations,
  addVariant,
  availableStockListDefinition,
  createDrop,
  createInventoryLocation,
  createProduct,
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
  updateProduct,
  updateVariant,
  variantListDefinition,
} from '@brand/core';
import {
  CreateDropDto,
  CreateInventoryLocationDto,
  CreateProductLocaleDto,
  CreateSubbrandDto,
} from '../dtos/catalog-back-office.dto';
import {
  CreateProductDto,
  NewVariantDto,
  ProductChangesDto,
  VariantChangesDto,
  toNewProductInput,
  toNewVariantInput,
  toProductChanges,
  toVariantChanges,
} from '../dtos/product.v10.dto';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { Type, arrayOf, boolean, listOf, nullable, string, wrapped } from '../http/wire-schema';
import { DropSchema, presentDrop } from '../presenters/drop.presenter';
import { InventoryLocationSchema, presentInventoryLocation } from '../presenters/inventory-location.presenter';
import { ProductLocaleSchema, presentProductLocale } from '../presenters/product-locale.presenter';
import {
  ProductSchema,
  ProductWire,
  SubbrandSchema,
  VariantWithProductSchema,
  VariantWithProductWire,
  presentProduct,
  presentSubbrand,
} from '../presenters/product.presenter';
import { AvailableStockSchema, presentAvailableStock } from '../presenters/stock.presenter';
import { presentVariant } from '../presenters/variant.presenter';
import { MediaUrl } from '../presenters/product-image.presenter';
import { mediaUrlFor } from './media.router';
import { pathId } from '../http/path-id';
import { RouterDeps } from './router-deps';

/** The key `GET /v10/inventory-available` answers with (see docs/decisions/catalog.md, "Catalog reads"). */
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

/** A product read with its includes, as `GET /v10/products/{id}` and the product writes answer it. */
function presentProductDetail(detail: ProductDetail, mediaUrl: MediaUrl): ProductWire {
  return presentProduct(detail.product, detail.includes, detail.relations, mediaUrl);
}

const PRODUCT_INCLUDES_NOTE = `Takes includes[] as the product list does: ${productListDefinition.includes.join(', ')}.`;
const VARIANT_INCLUDES_NOTE = `Takes includes[] as the variant list does: ${variantListDefinition.includes.join(', ')}.`;

/** What the single product and variant writes have in common (docs/decisions/v10-resources.md). */
const ONE_RULE_SET =
  'Checked, merged and announced by the rules of POST /products/sync (the write is a one-item sync); problems are named as this body names its fields.';
/** What the creates take of a sync variant's stock; `delete` they refuse by name (422) rather than ignore. */
const OPENING_STOCK =
  "A variant's inventory is its opening stock, booked by the sync's rules in the same transaction (a product with no_inventory takes none) and announced with inventory.changed; delete is refused (422): deletes go through the sync.";
/** Fields of a sync variant that a variant change refuses by name (422) rather than ignore. */
const NO_DELETE_OR_STOCK =
  'delete and inventory are refused (422): deletes go through the sync; stock moves through the sync (inventory) and through orders, shipments and receipts.';
const PRODUCT_INCLUDES = { resource: productListDefinition.resource, allowed: productListDefinition.includes };
const VARIANT_INCLUDES = { resource: variantListDefinition.resource, allowed: variantListDefinition.includes };

/**
 * Catalog and inventory reads of the current interface, products and variants written one at a
 * time (by the product sync's rules), and the catalog back office (drops, locations, locales, sub-brands).
 */
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
      includes: PRODUCT_INCLUDES,
      status: 200,
      response: { description: 'The product', schema: wrapped('product', ProductSchema) },
      handler: async ({ principal, params, includes, req }) => {
        const detail = await getProduct(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'product'),
          includes,
        });
        return { product: presentProductDetail(detail, mediaUrlFor(req, deps.mediaBaseUrl)) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/products',
      summary: 'Create a product',
      description:
        'One product with its variants: the fields of a product sync item. Needs a name and at least one variant (with attributes); ' +
        'never updates: an item_number the brand already uses is a 422 naming /item_number, a SKU of another product one naming ' +
        `/variants/{i}/sku. Variant images are downloaded as the sync downloads them. ${ONE_RULE_SET} ${OPENING_STOCK} Announces product.created. ` +
        `Answers the product as GET /v10/products/{id} shows it (the URL is in Location). ${PRODUCT_INCLUDES_NOTE}`,
      tag: 'Catalog',
      scopes: ['catalog:write'],
      body: CreateProductDto,
      includes: PRODUCT_INCLUDES,
      status: 201,
      response: {
        description: 'The new product',
        schema: wrapped('product', ProductSchema),
        location: 'The new product: /v10/products/{id}',
      },
      handler: async ({ principal, body, includes, req, res }) => {
        const detail = await createProduct(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          product: toNewProductInput(body),
          includes,
        });
        res.location(`/v10/products/${detail.product.product.id}`);
        return { product: presentProductDetail(detail, mediaUrlFor(req, deps.mediaBaseUrl)) };
      },
    })
    .route({
      method: 'patch',
      path: '/v10/products/:id',
      summary: 'Change a product',
      description:
        "The product's own fields, categories, suppliers and translations, as a sync item changes them: fields not sent keep their value, " +
        'meta merges, null clears. item_number may be sent only unchanged; variants and delete are refused (422): variants are added and changed through their own endpoints. ' +
        `${ONE_RULE_SET} Announces product.updated when something changed; a body that changes nothing writes nothing. ${PRODUCT_INCLUDES_NOTE}`,
      tag: 'Catalog',
      scopes: ['catalog:write'],
      body: ProductChangesDto,
      includes: PRODUCT_INCLUDES,
      status: 200,
      response: { description: 'The product after the change', schema: wrapped('product', ProductSchema) },
      handler: async ({ principal, params, body, includes, req }) => {
        const detail = await updateProduct(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          id: pathId(params['id'], 'product'),
          changes: toProductChanges(body),
          includes,
        });
        return { product: presentProductDetail(detail, mediaUrlFor(req, deps.mediaBaseUrl)) };
      },
    })
    .route({
      method: 'post',
      path: '/v10/products/:id/variants',
      summary: 'Add a variant to a product',
      description:
        "One new variant: the fields of a product sync variant. Needs attributes with the names of the product's other variants; a SKU " +
        `the brand already uses (on this or another product) is a 422 naming /sku. ${ONE_RULE_SET} ${OPENING_STOCK} Announces product.updated. ` +
        `Answers the variant as GET /v10/variants/{id} shows it (the URL is in Location). ${VARIANT_INCLUDES_NOTE}`,
      tag: 'Catalog',
      scopes: ['catalog:write'],
      body: NewVariantDto,
      includes: VARIANT_INCLUDES,
      status: 201,
      response: {
        description: 'The new variant',
        schema: wrapped('variant', VariantWithProductSchema),
        location: 'The new variant: /v10/variants/{id}',
      },
      handler: async ({ principal, params, body, includes, res }) => {
        const detail = await addVariant(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          productId: pathId(params['id'], 'product'),
          variant: toNewVariantInput(body),
          includes,
        });
        res.location(`/v10/variants/${detail.variant.variant.id}`);
        return { variant: presentVariantRef(detail.variant, detail.includes, detail.relations) };
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
      includes: VARIANT_INCLUDES,
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
      method: 'patch',
      path: '/v10/variants/:id',
      summary: 'Change a variant',
      description:
        'As a sync variant changes it: fields not sent keep their value; attributes, meta and prices merge; null clears an override; ' +
        `images sent are added. sku may be sent only unchanged. ${ONE_RULE_SET} ${NO_DELETE_OR_STOCK} Announces product.updated (with the whole product) ` +
        `when something changed; a body that changes nothing writes nothing. ${VARIANT_INCLUDES_NOTE}`,
      tag: 'Catalog',
      scopes: ['catalog:write'],
      body: VariantChangesDto,
      includes: VARIANT_INCLUDES,
      status: 200,
      response: { description: 'The variant after the change', schema: wrapped('variant', VariantWithProductSchema) },
      handler: async ({ principal, params, body, includes }) => {
        const detail = await updateVariant(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          id: pathId(params['id'], 'variant'),
          changes: toVariantChanges(body),
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
