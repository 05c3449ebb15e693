import request from 'supertest';
import { emptyCatalogRelations, ProductAggregate } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely';
import { presentDrop } from '../src/presenters/drop.presenter';
import { presentInventoryLocation } from '../src/presenters/inventory-location.presenter';
import { presentProductLocale, presentProductTranslation } from '../src/presenters/product-locale.presenter';
import { presentProductImage } from '../src/presenters/product-image.presenter';
import {
  presentProduct,
  presentProductCategory,
  presentProductSupplier,
  presentSubbrand,
} from '../src/presenters/product.presenter';
import { presentAvailableStock, presentStockBalance } from '../src/presenters/stock.presenter';
import { presentVariant, presentVariantCostPrice, presentVariantPrice } from '../src/presenters/variant.presenter';
import { useTestApp } from './support/test-app';

interface Operation {
  tags: string[];
  security: Record<string, string[]>[];
  parameters: { name: string }[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { content?: { 'application/json': { schema: Record<string, unknown> } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

const CATALOG_ROUTES: [method: string, path: string, scope: string][] = [
  ['get', '/v10/products', 'catalog:read'],
  ['get', '/v10/products/{id}', 'catalog:read'],
  ['get', '/v10/variants', 'catalog:read'],
  ['get', '/v10/variants/{id}', 'catalog:read'],
  ['get', '/v10/inventory-available', 'catalog:read'],
  ['get', '/v10/inventory-locations', 'catalog:read'],
  ['post', '/v10/inventory-locations', 'catalog:write'],
  ['get', '/v10/drops', 'catalog:read'],
  ['post', '/v10/drops', 'catalog:write'],
  ['get', '/v10/product-locales', 'catalog:read'],
  ['post', '/v10/product-locales', 'catalog:write'],
  ['post', '/v10/subbrands', 'catalog:write'],
];

const AT = '2026-01-01T00:00:00.000Z';
const aggregate: ProductAggregate = {
  product: {
    id: 1,
    brandId: 1,
    itemNumber: 'P',
    name: 'P',
    description: null,
    active: true,
    makeToOrderB2b: false,
    makeToOrderB2c: false,
    meta: {},
    weight: null,
    weightType: 'g',
    noInventory: false,
    releaseDate: null,
    noos: false,
    minOrderQuantity: null,
    customSort: null,
    orderColliOnly: false,
    colli: [],
    url: null,
    metaTitle: null,
    metaDescription: null,
    tags: [],
    useSortB2c: false,
    subbrandId: null,
    collectionId: null,
    categoryIds: [],
    createdAt: AT,
    updatedAt: AT,
  },
  variants: [],
  suppliers: [],
  translations: [],
};
const variantRecord = {
  variant: {
    id: 2,
    brandId: 1,
    productId: 1,
    sku: 'S',
    ean: null,
    attributes: {},
    archived: false,
    b2cAvailable: true,
    makeToOrderB2b: null,
    makeToOrderB2c: null,
    noos: null,
    weight: null,
    weightType: null,
    releaseDate: null,
    meta: {},
    picture: null,
    position: 0,
    dropIds: [],
    createdAt: AT,
    updatedAt: AT,
  },
  prices: [],
  costPrices: [],
};

/** Each schema and an object its presenter returns with every optional part present. */
const PRESENTED: Record<string, object> = {
  Product: presentProduct(aggregate, ['variants', 'categories', 'suppliers', 'translations', 'images']),
  Variant: {
    ...presentVariant(variantRecord, 'P', ['prices', 'inventory', 'cost_prices'], emptyCatalogRelations()),
    product: null,
  },
  VariantPrice: presentVariantPrice({
    variantId: 2,
    currency: 'EUR',
    salesPrice: 1,
    recSalesPrice: 2,
    offerPrice: null,
    b2cOfferPrice: null,
  }),
  VariantCostPrice: presentVariantCostPrice({ variantId: 2, costPriceSetId: 3, costPrice: 1 }, new Map()),
  StockBalance: presentStockBalance({
    id: 1,
    brandId: 1,
    variantId: 2,
    locationId: 3,
    inStock: 1,
    reserved: 0,
    updatedAt: AT,
  }),
  AvailableStock: presentAvailableStock({
    id: 1,
    variantId: 2,
    sku: 'S',
    ean: null,
    locationId: 3,
    inStock: 1,
    available: 1,
    updatedAt: AT,
  }),
  ProductCategory: presentProductCategory(
    { id: 1, brandId: 1, parentId: null, name: 'C', createdAt: AT, updatedAt: AT },
    new Map(),
  ),
  ProductSupplier: presentProductSupplier(
    {
      productId: 1,
      supplierId: 1,
      primary: false,
      leadTimeType: 'weeks',
      leadTimeFrom: null,
      leadTimeTo: null,
      costPriceSetId: null,
    },
    new Map(),
  ),
  ProductTranslation: presentProductTranslation(
    { productId: 1, localeId: 1, name: 'N', description: null, metaTitle: null, metaDescription: null },
    new Map(),
  ),
  ProductImage: presentProductImage(
    {
      id: 1,
      brandId: 1,
      productId: 1,
      blobKey: 'k',
      sourceUrl: 'u',
      existanceKey: null,
      contentType: 'image/png',
      sizeBytes: 1,
      alt: null,
      filename: null,
      sort: 0,
      sortB2c: null,
      variantIds: [],
      createdAt: AT,
      updatedAt: AT,
    },
    (key) => `/media/${key}`,
  ),
  Drop: presentDrop({ id: 1, brandId: 1, code: 'D', name: 'D', createdAt: AT, updatedAt: AT }),
  InventoryLocation: presentInventoryLocation({
    id: 1,
    brandId: 1,
    name: 'L',
    isDefault: true,
    createdAt: AT,
    updatedAt: AT,
  }),
  ProductLocale: presentProductLocale({ id: 1, brandId: 1, code: 'de', name: 'German' }),
  Subbrand: presentSubbrand({ id: 1, brandId: 1, name: 'S', createdAt: AT, updatedAt: AT }),
};

for (const dialect of oneTestDialect()) {
  describe(`OpenAPI of the catalog [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let document: Document;

    beforeAll(async () => {
      document = (await request(t.server).get('/openapi.json')).body as Document;
    });

    it('documents every catalog route with its scope and a response schema', () => {
      for (const [method, path, scope] of CATALOG_ROUTES) {
        const operation = document.paths[path]?.[method];
        expect({ route: `${method} ${path}`, documented: operation !== undefined }).toEqual({
          route: `${method} ${path}`,
          documented: true,
        });
        expect(operation!.security).toEqual([
          { bearer: [scope], app_key: [] },
          { access_token: [scope], app_key: [] },
        ]);
        expect(operation!.responses[method === 'post' ? '201' : '200']!.content).toBeDefined();
      }
    });

    it('documents inventory available as cursor-only, without page or total', () => {
      const operation = document.paths['/v10/inventory-available']!.get!;
      expect(operation.parameters.map((p) => p.name)).toEqual([
        'filter_groups',
        'sort',
        'limit',
        'cursor',
        'starting_after',
      ]);
      const schema = operation.responses['200']!.content!['application/json'].schema as {
        properties: Record<string, unknown>;
      };
      expect(Object.keys(schema.properties).sort()).toEqual(['has_more', 'inventory', 'next_cursor']);
      expect(document.paths['/v10/products']!.get!.parameters.map((p) => p.name)).toContain('page');
    });

    it('describes the back-office bodies with their DTOs', () => {
      expect(document.paths['/v10/drops']!.post!.requestBody!.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/CreateDropDto',
      });
      expect(document.components.schemas['CreateDropDto']!.required).toEqual(['code', 'name']);
      expect(document.components.schemas['CreateInventoryLocationDto']!.required).toEqual(['name']);
      expect(document.components.schemas['CreateProductLocaleDto']!.required).toEqual(['code', 'name']);
      expect(document.components.schemas['CreateSubbrandDto']!.required).toEqual(['name']);
    });

    it('documents every field the catalog presenters return, and no other', () => {
      for (const [name, presented] of Object.entries(PRESENTED)) {
        const schema = document.components.schemas[name];
        expect({ name, properties: Object.keys(schema?.properties ?? {}).sort() }).toEqual({
          name,
          properties: Object.keys(presented).sort(),
        });
      }
    });
  });
}
