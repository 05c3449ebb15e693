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
