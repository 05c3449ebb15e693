import request from 'supertest';
import { ProductAggregate, newProduct } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely';
import { presentLegacyCategory } from '../../src/presenters/legacy/legacy-category.presenter';
import { presentLegacyCollection } from '../../src/presenters/legacy/legacy-collection.presenter';
import { presentLegacyProduct, presentLegacyVariant } from '../../src/presenters/legacy/legacy-product.presenter';
import { useTestApp } from '../support/test-app';

type Schema = { properties?: Record<string, unknown>; required?: string[] };
type Document = {
  paths: Record<string, Record<string, { security: Record<string, string[]>[]; parameters: { name: string }[] }>>;
  components: { schemas: Record<string, Schema> };
};

const NOW = '2026-03-01T09:00:00.000Z';
const aggregate: ProductAggregate = {
  product: { ...newProduct(1, 1, 'P-1', NOW), name: 'P' },
  variants: [],
  suppliers: [],
  translations: [],
};
const everything = {
  includes: ['categories', 'collection', 'subbrand', 'tags', 'variants.inventory'],
  categories: new Map(),
  collections: new Map(),
  subbrands: new Map(),
  stock: new Map(),
};

for (const dialect of oneTestDialect()) {
  describe(`older interface in the OpenAPI document [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let document: Document;

    beforeAll(async () => {
      document = (await request(t.server).get('/openapi.json')).body as Document;
    });

    const properties = (name: string) => Object.keys(document.components.schemas[name]!.properties!).sort();

    it('documents every field the older presenters return', () => {
      const variant = {
        variant: {
          id: 1,
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
          position: 1,
          dropIds: [],
          createdAt: NOW,
          updatedAt: NOW,
        },
        prices: [],
        costPrices: [],
      };
      expect(properties('LegacyProductObject')).toEqual(
        Object.keys(presentLegacyProduct(aggregate, everything)).sort(),
      );
      expect(properties('LegacyVariantObject')).toEqual(Object.keys(presentLegacyVariant(variant, everything)).sort());
      const category = { id: 1, brandId: 1, parentId: null, name: 'C', createdAt: NOW, updatedAt: NOW };
      expect(properties('LegacyCategory')).toEqual(
        Object.keys(
          presentLegacyCategory(category, {
            includes: ['children', 'products'],
            children: new Map(),
            products: new Map(),
          }),
        ).sort(),
      );
      const collection = {
        id: 1,
        brandId: 1,
        title: 'C',
        active: true,
        visibility: 'own_entity',
        allowedCustomerIds: [],
        createdAt: NOW,
        updatedAt: NOW,
      };
      expect(properties('LegacyCollectionObject')).toEqual(Object.keys(presentLegacyCollection(collection)).sort());
    });

    it('secures /api with the token and X-ServiceAppIdentifier, and documents page paging and split_by_attribute', () => {
      const list = document.paths['/api/products']!['get']!;
      expect(list.security).toEqual([
        { bearer: ['catalog:read'], app_identifier: [] },
        { access_token: ['catalog:read'], app_identifier: [] },
      ]);
      expect(list.parameters.map((p) => p.name)).toEqual([
        'filter_groups',
        'sort',
        'limit',
        'includes[]',
        'page',
        'split_by_attribute',
      ]);
    });
  });
}
