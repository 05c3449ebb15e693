import {
  ListRequest,
  categoryListDefinition,
  collectionListDefinition,
  createCategory,
  createCollection,
  createLegacyProduct,
  createLegacyVariant,
  deleteCategory,
  deleteLegacyProduct,
  deleteLegacyVariant,
  getCategory,
  getCollection,
  getLegacyProduct,
  legacyProductListDefinition,
  listCategories,
  listCollections,
  listLegacyProducts,
  updateCategory,
  updateLegacyProduct,
  updateLegacyVariant,
} from '@brand/core';
import { Request } from 'express';
import { LegacyCategoryRequestDto } from '../dtos/legacy/legacy-category.dto';
import { LegacyCollectionRequestDto, toCreateCollectionInput } from '../dtos/legacy/legacy-collection.dto';
import {
  LegacyProductChangesRequestDto,
  LegacyProductListQueryDto,
  LegacyProductRequestDto,
  LegacyVariantChangesRequestDto,
  LegacyVariantRequestDto,
  toLegacyProductChanges,
  toLegacyProductInput,
  toLegacyVariantChanges,
  toLegacyVariantInput,
} from '../dtos/legacy/legacy-product.dto';
import { Surface } from '../http/route';
import { rawListQuery } from '../listing/list-request';
import { TArray, TInteger, TObject } from '@sinclair/typebox';
import { TSchema, Type, arrayOf, integer, wrapped } from '../http/wire-schema';
import { LegacyCategorySchema, presentLegacyCategory } from '../presenters/legacy/legacy-category.presenter';
import { LegacyCollectionSchema, presentLegacyCollection } from '../presenters/legacy/legacy-collection.presenter';
import {
  LegacyProductSchema,
  LegacyVariantSchema,
  presentLegacyProduct,
  presentLegacyVariant,
} from '../presenters/legacy/legacy-product.presenter';
import { pathId } from '../http/path-id';
import { RouterDeps } from './router-deps';

/** `{ "total": n, "<key>": [<item>…] }`: the older interface's list answer. */
function legacyListOf<K extends string, T extends TSchema>(
  key: K,
  item: T,
): TObject<{ total: TInteger } & { [k in K]: TArray<T> }> {
  return Type.Object({ total: integer('Rows matching the filters'), [key]: arrayOf(item) } as {
    total: TInteger;
  } & { [k in K]: TArray<T> });
}

/** The older interface's lists page with `page` and `limit` only; the core refuses `cursor` and `starting_after`. */
function legacyList(req: Request, brandId: number): ListRequest {
  return { brandId, query: rawListQuery(req.query) };
}

const PAGING_NOTE =
  'Pages with page (from 0) and limit (default 20, at most 100) and always answers with total; cursor and starting_after are refused (422).';
const CATEGORY_INCLUDES_NOTE = `Takes includes[] as the category list does: ${categoryListDefinition.includes.join(', ')}.`;
const PRODUCT_INCLUDES_NOTE = `Takes includes[] as the product list does: ${legacyProductListDefinition.includes.join(', ')} (variants are always shown).`;

/**
 * The older interface under /api: categories, collections, products and variants in the older
 * form. Authentication (token plus a non-empty X-ServiceAppIdentifier, no app key) and the
 * JSON Content-Type rule come from the surface; errors of the spec's table carry its integer
 * code (see `LEGACY_ERROR_CODES`).
 */
export function legacyRouter(deps: RouterDeps): Surface<'legacy'> {
  return new Surface('legacy', 'legacy', ['/api'])
    .route({
      method: 'get',
      path: '/api/categories',
      summary: 'List categories',
      description: `Top categories (parent null) and subcategories alike. ${PAGING_NOTE}`,
      tag: 'Older interface',
      scopes: ['catalog:read'],
      list: { ...categoryListDefinition, pagedOnly: true },
      status: 200,
      response: {
        description: 'A page of categories',
        schema: legacyListOf('categories', LegacyCategorySchema),
      },
      handler: async ({ principal, req }) => {
        const { page, relations } = await listCategories(deps, legacyList(req, principal.brandId));
        return {
          total: page.total ?? 0,
          categories: page.items.map((category) => presentLegacyCategory(category, relations)),
        };
      },
    })
    .route({
      method: 'post',
      path: '/api/categories',
      summary: 'Create a top category',
      description: 'A name already used by another top category (in any letter case) is refused with code 40001.',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      body: LegacyCategoryRequestDto,
      status: 201,
      response: { description: 'The new category (bare object)', schema: LegacyCategorySchema },
      handler: async ({ principal, body }) =>
        presentLegacyCategory(await createCategory(deps, { brandId: principal.brandId, name: body.category.name })),
    })
    .route({
      method: 'get',
      path: '/api/categories/:categoryId',
      summary: 'Get a category',
      description: CATEGORY_INCLUDES_NOTE,
      tag: 'Older interface',
      scopes: ['catalog:read'],
      includes: { resource: categoryListDefinition.resource, allowed: categoryListDefinition.includes },
      status: 200,
      response: { description: 'The category', schema: wrapped('category', LegacyCategorySchema) },
      handler: async ({ principal, params, includes }) => {
        const { category, relations } = await getCategory(deps, {
          brandId: principal.brandId,
          id: pathId(params['categoryId'], 'category'),
          includes,
        });
        return { category: presentLegacyCategory(category, relations) };
      },
    })
    .route({
      method: 'put',
      path: '/api/categories/:categoryId',
      summary: 'Rename a category',
      description: 'A name already used under the same parent (in any letter case) is refused with code 40001.',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      body: LegacyCategoryRequestDto,
      status: 200,
      response: { description: 'The category (bare object)', schema: LegacyCategorySchema },
      handler: async ({ principal, params, body }) =>
        presentLegacyCategory(
          await updateCategory(deps, {
            brandId: principal.brandId,
            id: pathId(params['categoryId'], 'category'),
            name: body.category.name,
          }),
        ),
    })
    .route({
      method: 'delete',
      path: '/api/categories/:categoryId',
      summary: 'Delete a category',
      description: 'Deletes its subcategories too; their products are detached, not deleted.',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      status: 204,
      response: { description: 'Deleted' },
      handler: async ({ principal, params }) => {
        await deleteCategory(deps, { brandId: principal.brandId, id: pathId(params['categoryId'], 'category') });
      },
    })
    .route({
      method: 'post',
      path: '/api/categories/:parentCategoryId/categories',
      summary: 'Create a subcategory',
      description:
        'The parent must be a top category of the brand (a subcategory cannot have subcategories: 422). A name already used under the parent is refused with code 40001.',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      body: LegacyCategoryRequestDto,
      status: 201,
      response: {
        description: 'The new subcategory (bare object)',
        schema: LegacyCategorySchema,
      },
      handler: async ({ principal, params, body }) =>
        presentLegacyCategory(
          await createCategory(deps, {
            brandId: principal.brandId,
            name: body.category.name,
            parentId: pathId(params['parentCategoryId'], 'category'),
          }),
        ),
    })
    .route({
      method: 'get',
      path: '/api/collections',
      summary: 'List collections',
      description: PAGING_NOTE,
      tag: 'Older interface',
      scopes: ['catalog:read'],
      list: { ...collectionListDefinition, pagedOnly: true },
      status: 200,
      response: {
        description: 'A page of collections',
        schema: legacyListOf('collections', LegacyCollectionSchema),
      },
      handler: async ({ principal, req }) => {
        const { page } = await listCollections(deps, legacyList(req, principal.brandId));
        return { total: page.total ?? 0, collections: page.items.map(presentLegacyCollection) };
      },
    })
    .route({
      method: 'post',
      path: '/api/collections',
      summary: 'Create a collection',
      description:
        'visibility: own_entity (every customer of the brand; the default) or customers_custom (only allowed_customers, which must be customers of the brand).',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      body: LegacyCollectionRequestDto,
      status: 201,
      response: {
        description: 'The new collection (bare object)',
        schema: LegacyCollectionSchema,
      },
      handler: async ({ principal, body }) =>
        presentLegacyCollection(await createCollection(deps, toCreateCollectionInput(principal.brandId, body))),
    })
    .route({
      method: 'get',
      path: '/api/collections/:collectionId',
      summary: 'Get a collection',
      tag: 'Older interface',
      scopes: ['catalog:read'],
      status: 200,
      response: {
        description: 'The collection',
        schema: wrapped('collection', LegacyCollectionSchema),
      },
      handler: async ({ principal, params }) => ({
        collection: presentLegacyCollection(
          await getCollection(deps, { brandId: principal.brandId, id: pathId(params['collectionId'], 'collection') }),
        ),
      }),
    })
    .route({
      method: 'get',
      path: '/api/products',
      summary: 'List products',
      description:
        `Products in the older form, with their variants and prices. ${PAGING_NOTE} ` +
        'Product pagination: with split_by_attribute (e.g. color) every product of the page comes back once per value of that attribute, with only those variants; ' +
        'page and limit count products, so a page may hold more entries than limit; walk by increasing page from 0 until a page is empty. total counts products.',
      tag: 'Older interface',
      scopes: ['catalog:read'],
      list: { ...legacyProductListDefinition, pagedOnly: true },
      query: LegacyProductListQueryDto,
      status: 200,
      response: {
        description: 'A page of products',
        schema: legacyListOf('products', LegacyProductSchema),
      },
      handler: async ({ principal, req, query }) => {
        const result = await listLegacyProducts(deps, {
          ...legacyList(req, principal.brandId),
          ...(query.split_by_attribute !== undefined ? { splitByAttribute: query.split_by_attribute } : {}),
        });
        return {
          total: result.total,
          products: result.entries.map((aggregate) => presentLegacyProduct(aggregate, result.relations)),
        };
      },
    })
    .route({
      method: 'post',
      path: '/api/products',
      summary: 'Create a product with its variants',
      description:
        'Errors of the older interface: 1000001 attributes differ across variants, 1000002 item number taken, 1000003 SKU taken. ' +
        "Every variant needs a price in the brand's base currency.",
      tag: 'Older interface',
      scopes: ['catalog:write'],
      body: LegacyProductRequestDto,
      status: 201,
      response: {
        description: 'The new product (bare object, variants with inventory)',
        schema: LegacyProductSchema,
      },
      handler: async ({ principal, body }) => {
        const view = await createLegacyProduct(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          product: toLegacyProductInput(body.product),
        });
        return presentLegacyProduct(view.aggregate, view.relations);
      },
    })
    .route({
      method: 'get',
      path: '/api/products/:productId',
      summary: 'Get a product',
      description: PRODUCT_INCLUDES_NOTE,
      tag: 'Older interface',
      scopes: ['catalog:read'],
      includes: { resource: legacyProductListDefinition.resource, allowed: legacyProductListDefinition.includes },
      status: 200,
      response: { description: 'The product', schema: wrapped('product', LegacyProductSchema) },
      handler: async ({ principal, params, includes }) => {
        const view = await getLegacyProduct(deps, {
          brandId: principal.brandId,
          id: pathId(params['productId'], 'product'),
          includes,
        });
        return { product: presentLegacyProduct(view.aggregate, view.relations) };
      },
    })
    .route({
      method: 'put',
      path: '/api/products/:productId',
      summary: 'Update a product (root fields only)',
      description:
        'Changes subbrand_id, collection_id, item_number (1000002 when taken), name, description, image, images, active and colli; variants are left alone.',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      body: LegacyProductChangesRequestDto,
      status: 200,
      response: { description: 'The product (bare object)', schema: LegacyProductSchema },
      handler: async ({ principal, params, body }) => {
        const view = await updateLegacyProduct(deps, {
          brandId: principal.brandId,
          id: pathId(params['productId'], 'product'),
          product: toLegacyProductChanges(body.product),
        });
        return presentLegacyProduct(view.aggregate, view.relations);
      },
    })
    .route({
      method: 'delete',
      path: '/api/products/:productId',
      summary: 'Delete a product',
      description: 'Only while no orders (or other documents) refer to it; otherwise 422 has_dependents.',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      status: 204,
      response: { description: 'Deleted' },
      handler: async ({ principal, params }) => {
        await deleteLegacyProduct(deps, { brandId: principal.brandId, id: pathId(params['productId'], 'product') });
      },
    })
    .route({
      method: 'post',
      path: '/api/products/:productId/variants',
      summary: 'Add a variant to a product',
      description:
        "The variant needs the product's attribute names (1000001), a free SKU (1000003) and a price in the brand's base currency.",
      tag: 'Older interface',
      scopes: ['catalog:write'],
      body: LegacyVariantRequestDto,
      status: 201,
      response: {
        description: 'The new variant (bare object, with inventory)',
        schema: LegacyVariantSchema,
      },
      handler: async ({ principal, params, body }) => {
        const view = await createLegacyVariant(deps, {
          brandId: principal.brandId,
          productId: pathId(params['productId'], 'product'),
          userId: principal.userId,
          variant: toLegacyVariantInput(body.variant),
        });
        return presentLegacyVariant(view.record, view.relations);
      },
    })
    .route({
      method: 'put',
      path: '/api/products/:productId/variants/:variantId',
      summary: 'Update a variant',
      description:
        'Attribute values may change, names may not (1000001); a new SKU must be free (1000003). Prices: the currencies sent are set, others stay.',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      body: LegacyVariantChangesRequestDto,
      status: 200,
      response: {
        description: 'The variant (bare object, with inventory)',
        schema: LegacyVariantSchema,
      },
      handler: async ({ principal, params, body }) => {
        const view = await updateLegacyVariant(deps, {
          brandId: principal.brandId,
          productId: pathId(params['productId'], 'product'),
          variantId: pathId(params['variantId'], 'variant'),
          userId: principal.userId,
          variant: toLegacyVariantChanges(body.variant),
        });
        return presentLegacyVariant(view.record, view.relations);
      },
    })
    .route({
      method: 'delete',
      path: '/api/products/:productId/variants/:variantId',
      summary: 'Delete a variant',
      description:
        'The last variant of a product cannot be deleted (1000005); a variant that orders refer to stays (422 has_dependents).',
      tag: 'Older interface',
      scopes: ['catalog:write'],
      status: 204,
      response: { description: 'Deleted' },
      handler: async ({ principal, params }) => {
        await deleteLegacyVariant(deps, {
          brandId: principal.brandId,
          productId: pathId(params['productId'], 'product'),
          variantId: pathId(params['variantId'], 'variant'),
        });
      },
    });
}
