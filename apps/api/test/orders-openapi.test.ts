// Response shapes are checked on every response a test receives by test/support/response-conformance.ts.
import request from 'supertest';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { useTestApp } from './support/test-app';

interface Operation {
  security: Record<string, string[]>[];
  parameters: { name: string }[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { content?: { 'application/json': { schema: Record<string, unknown> } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

const ROUTES: [method: string, path: string, scope: string, status: string][] = [
  ['post', '/v10/order-channels', 'orders:write', '201'],
  ['get', '/v10/order-channels', 'orders:read', '200'],
  ['post', '/v10/order-channels/{publicId}/orders', 'orders:write', '201'],
  ['get', '/v10/orders', 'orders:read', '200'],
  ['get', '/v10/orders/{id}', 'orders:read', '200'],
  ['post', '/v10/orders/{id}/approve', 'orders:write', '200'],
  ['post', '/v10/orders/{id}/cancel', 'orders:write', '200'],
  ['post', '/v10/orders/{id}/shipments', 'orders:write', '201'],
  ['get', '/v10/shipments', 'fulfilment:read', '200'],
  ['get', '/v10/shipments/{id}', 'fulfilment:read', '200'],
  ['get', '/v10/settings', 'settings:read', '200'],
  ['patch', '/v10/settings', 'settings:write', '200'],
  ['get', '/v10/invoices', 'finance:read', '200'],
  ['get', '/v10/invoices/{id}', 'finance:read', '200'],
  ['post', '/v10/invoices/{id}/book', 'finance:write', '200'],
  ['post', '/v10/invoices/{id}/credit-notes', 'finance:write', '201'],
  ['get', '/v10/credit-notes', 'finance:read', '200'],
  ['get', '/v10/credit-notes/{id}', 'finance:read', '200'],
  ['post', '/v10/credit-notes/{id}/book', 'finance:write', '200'],
  ['get', '/v10/accounting-entries', 'finance:read', '200'],
];

for (const dialect of oneTestDialect()) {
  describe(`OpenAPI of orders, shipments, finance and settings [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let doc: Document;

    beforeAll(async () => {
      doc = (await request(t.server).get('/openapi.json')).body as Document;
    });

    it('documents every route with its scope and a response schema', () => {
      for (const [method, path, scope, status] of ROUTES) {
        const operation = doc.paths[path]?.[method];
        expect({ route: `${method} ${path}`, documented: operation !== undefined }).toEqual({
          route: `${method} ${path}`,
          documented: true,
        });
        expect(operation!.security).toEqual([
          { bearer: [scope], app_key: [] },
          { access_token: [scope], app_key: [] },
        ]);
        expect(operation!.responses[status]!.content).toBeDefined();
      }
      expect(doc.paths['/v10/orders']!.get!.parameters.map((p) => p.name)).toEqual([
        'filter_groups',
        'sort',
        'limit',
        'cursor',
        'starting_after',
        'includes[]',
        'page',
      ]);
    });

    it('describes the order creation body with its DTOs', () => {
      expect(
        doc.paths['/v10/order-channels/{publicId}/orders']!.post!.requestBody!.content['application/json'].schema,
      ).toEqual({ $ref: '#/components/schemas/PlaceOrderRequestDto' });
      expect(doc.components.schemas['PlaceOrderRequestDto']!.required).toEqual(['order']);
      expect(doc.components.schemas['PlaceOrderDto']!.required).toEqual(['lines']);
      expect(Object.keys(doc.components.schemas['PlaceOrderDto']!.properties!)).toEqual(
        expect.arrayContaining(['customer_id', 'customer_number', 'drop_id', 'drop_code', 'lines', 'shipping_cost']),
      );
      expect(doc.components.schemas['ArticleQuantityDto']!.required).toEqual(['quantity']);
      expect(doc.components.schemas['UpdateSettingsDto']!.required ?? []).toEqual([]);
    });
  });
}
