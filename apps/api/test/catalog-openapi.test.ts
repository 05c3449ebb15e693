// Response shapes are checked on every response a test receives by test/support/response-conformance.ts.
import request from 'supertest';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
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

    it('shows inventory on the product and variant create bodies as the sync variant has it, and refused on a variant change', () => {
      const body = (path: string, method: string) =>
        document.paths[path]![method]!.requestBody!.content['application/json'].schema.$ref.replace(
          '#/components/schemas/',
          '',
        );
      const schemas = document.components.schemas;
      const syncInventory = schemas['ProductSyncVariantFieldsDto']!.properties!['inventory'];
      expect(syncInventory).toMatchObject({
        type: 'array',
        items: { $ref: '#/components/schemas/ProductSyncInventoryDto' },
      });

      const newVariant = body('/v10/products/{id}/variants', 'post');
      expect(schemas[newVariant]!.properties!['inventory']).toEqual({
        ...(syncInventory as object),
        description: expect.stringContaining('opening stock'),
      });
      const newProduct = schemas[body('/v10/products', 'post')]!.properties!['variants'];
      expect(newProduct).toMatchObject({ items: { $ref: `#/components/schemas/${newVariant}` } });
      expect(schemas[body('/v10/variants/{id}', 'patch')]!.properties!['inventory']).toEqual({
        not: {},
        description: expect.stringContaining('POST /products/sync'),
      });
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
  });
}
