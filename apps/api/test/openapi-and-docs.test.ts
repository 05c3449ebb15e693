import request from 'supertest';
import { Storage } from '@brand/persistence-kysely';
import { oneTestDialect, testDialects } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { presentCustomer } from '../src/presenters/customer.presenter';
import { buildApp, useTestApp } from './support/test-app';

interface Operation {
  operationId: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: { name: string; in: string }[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { $ref?: string; content?: unknown }>;
}
type Document = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
    responses: Record<string, unknown>;
  };
};

const ROUTES = [
  'get /health',
  'get /health/live',
  'get /health/ready',
  'get /openapi.json',
  'get /v10/customers',
  'post /v10/customers',
  'get /v10/customers/{id}',
  'patch /v10/customers/{id}',
  'get /v10/customer-groups',
  'post /v10/customer-groups',
  'get /v10/payment-terms',
  'post /v10/payment-terms',
  'get /v10/suppliers',
  'post /v10/suppliers',
  'get /v10/suppliers/{id}',
  'patch /v10/suppliers/{id}',
  'get /v10/products',
  'get /v10/products/{id}',
  'post /v10/products',
  'patch /v10/products/{id}',
  'post /v10/products/{id}/variants',
  'get /v10/variants',
  'get /v10/variants/{id}',
  'patch /v10/variants/{id}',
  'get /v10/inventory-available',
  'get /v10/inventory-locations',
  'post /v10/inventory-locations',
  'get /v10/drops',
  'get /v10/events',
  'get /v10/events/{id}',
  'post /v10/webhook-endpoints',
  'get /v10/webhook-endpoints',
  'get /v10/webhook-endpoints/{id}',
  'patch /v10/webhook-endpoints/{id}',
  'delete /v10/webhook-endpoints/{id}',
  'post /v10/webhook-endpoints/{id}/rotate-secret',
  'get /v10/webhook-endpoints/{id}/deliveries',
  'post /v10/webhook-endpoints/{id}/deliveries/{deliveryId}/retry',
  'post /v10/drops',
  'get /v10/product-locales',
  'post /v10/product-locales',
  'post /v10/subbrands',
  'post /v10/order-channels',
  'get /v10/order-channels',
  'get /v10/order-channels/{id}',
  'post /v10/order-channels/{publicId}/orders',
  'post /v10/claim-causes',
  'get /v10/claim-causes',
  'post /v10/return-portals',
  'get /v10/return-portals',
  'put /v10/external-return-portals/{publicId}/returns',
  'post /v10/external-return-portals/{publicId}/returns/finalize',
  'get /v10/orders',
  'get /v10/orders/{id}',
  'post /v10/orders/{id}/approve',
  'post /v10/orders/{id}/cancel',
  'post /v10/orders/{id}/shipments',
  'get /v10/shipments',
  'get /v10/shipments/{id}',
  'get /v10/settings',
  'patch /v10/settings',
  'get /v10/invoices',
  'get /v10/invoices/{id}',
  'post /v10/invoices/{id}/book',
  'post /v10/invoices/{id}/credit-notes',
  'get /v10/credit-notes',
  'get /v10/credit-notes/{id}',
  'post /v10/credit-notes/{id}/book',
  'get /v10/accounting-entries',
  'get /v10/accounting-entries/{id}',
  'post /customers/sync',
  'post /production/customers/sync',
  'post /production/suppliers/sync',
  'get /api/categories',
  'post /api/categories',
  'get /api/categories/{categoryId}',
  'put /api/categories/{categoryId}',
  'delete /api/categories/{categoryId}',
  'post /api/categories/{parentCategoryId}/categories',
  'get /api/collections',
  'post /api/collections',
  'get /api/collections/{collectionId}',
  'get /api/products',
  'post /api/products',
  'get /api/products/{productId}',
  'put /api/products/{productId}',
  'delete /api/products/{productId}',
  'post /api/products/{productId}/variants',
  'put /api/products/{productId}/variants/{variantId}',
  'delete /api/products/{productId}/variants/{variantId}',
  'post /products/sync',
  'post /products/images/sync',
  'get /media/{key}',
  'get /v10/orders/export',
  'post /v10/orders/mark-as-exported',
  'get /v10/shipments/export',
  'post /v10/shipments/mark-as-exported',
  'get /v10/invoices/export',
  'post /v10/invoices/mark-as-exported',
  'get /v10/credit-notes/export',
  'post /v10/credit-notes/mark-as-exported',
  'get /v10/accounting-entries/export',
  'post /v10/accounting-entries/mark-as-exported',
  'get /3pl/shipments',
  'get /3pl/shipments/export',
  'post /3pl/shipments/deliver',
  'post /3pl/shipments/cancel',
  'post /3pl/shipments/mark-as-exported',
  'post /v10/returns',
  'get /v10/returns',
  'get /v10/returns/{id}',
  'post /v10/returns/{id}/approve',
  'get /v10/alerts',
  'post /v10/alerts/{id}/credit-note',
  'get /3pl/returns',
  'get /3pl/returns/export',
  'post /3pl/returns/receive',
  'post /3pl/returns/create-ad-hoc-return',
  'post /3pl/returns/mark-as-exported',
  'get /v10/production-orders/export',
  'post /v10/production-orders/mark-as-exported',
  'get /v10/production-orders',
  'post /v10/production-orders',
  'get /v10/production-orders/{id}',
  'post /v10/production-orders/{id}/approve',
  'post /v10/production-orders/{id}/close',
  'post /v10/production-orders/{id}/delivery-notes',
  'get /v10/production-order-delivery-notes',
  'get /3pl/production/orders/delivery-notes',
  'post /3pl/production/receive',
  'post /v10/bulk-operations',
  'get /v10/bulk-operations',
  'get /v10/bulk-operations/{id}',
  'get /v10/bulk-operations/{id}/results',
  'post /v10/bulk-operations/{id}/cancel',
];

// The document and the docs pages touch no SQL: one dialect. /health asks the database: every dialect.
for (const dialect of oneTestDialect()) {
  describe(`OpenAPI and docs [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let document: Document;

    beforeAll(async () => {
      const response = await request(t.server).get('/openapi.json');
      expect(response.status).toBe(200);
      document = response.body as Document;
    });

    it('serves an OpenAPI 3.1 document without authentication', () => {
      expect(document.openapi).toBe('3.1.0');
      expect(document.info).toMatchObject({ title: expect.any(String), version: '10' });
    });

    it('lists every registered route, and only those', () => {
      const listed = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method} ${path}`),
      );
      expect(listed.sort()).toEqual([...ROUTES].sort());
      const ids = listed.map((route) => {
        const [method, path] = route.split(' ');
        return document.paths[path!]![method!]!.operationId;
      });
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('resolves every $ref in the document to a declared component', () => {
      const refs = new Set<string>();
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (node !== null && typeof node === 'object') {
          for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
            if (key === '$ref' && typeof value === 'string') refs.add(value);
            else walk(value);
          }
        }
      };
      walk(document);
      const components = document.components as unknown as Record<string, Record<string, unknown>>;
      const dangling = [...refs].filter((ref) => {
        const [, , section, name] = ref.split('/');
        return components[section!]?.[name!] === undefined;
      });
      expect(dangling).toEqual([]);
    });

    it('declares the security schemes and uses them per interface', () => {
      expect(document.components.securitySchemes).toEqual({
        bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        access_token: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'access_token' }),
        app_key: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Service-App-Key' }),
        app_identifier: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-ServiceAppIdentifier' }),
      });
      expect(document.paths['/customers/sync']!.post!.security).toEqual([
        { bearer: ['customers:write'], app_key: [] },
        { access_token: ['customers:write'], app_key: [] },
      ]);
      expect(document.paths['/health']!.get!.security).toEqual([]);
    });

    it('describes list parameters and responses with the error envelope', () => {
      const list = document.paths['/v10/customers']!.get!;
      expect(list.parameters.map((p) => p.name)).toEqual([
        'filter_groups',
        'sort',
        'limit',
        'cursor',
        'starting_after',
        'includes[]',
        'page',
      ]);
      expect(list.responses['200']!.content).toBeDefined();
      expect(list.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
      expect(list.responses['422']).toEqual({ $ref: '#/components/responses/ValidationError' });
      expect(document.components.schemas['ErrorEnvelope']).toBeDefined();
      expect(document.components.schemas['Customer']!.required).toEqual(
        expect.arrayContaining(['customer_number', 'discount_percentage', 'payment_terms_id']),
      );
    });

    it('documents 503 storage_unavailable with Retry-After on every route, and 400 invalid_path on routes with path ids', () => {
      const components = document.components as unknown as {
        responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
      };
      expect(components.responses['ServiceUnavailable']!.description).toContain('storage_unavailable');
      expect(components.responses['ServiceUnavailable']!.headers).toEqual({
        'Retry-After': expect.objectContaining({ schema: { type: 'integer', minimum: 0 } }),
      });
      expect(components.responses['BadRequest']!.description).toEqual(expect.stringContaining('body_too_deep'));
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          expect({ route: `${method} ${path}`, status503: operation.responses['503'] }).toEqual({
            route: `${method} ${path}`,
            status503: { $ref: '#/components/responses/ServiceUnavailable' },
          });
          if (path.includes('{'))
            expect({ route: `${method} ${path}`, status400: operation.responses['400'] }).toEqual({
              route: `${method} ${path}`,
              status400: { $ref: '#/components/responses/BadRequest' },
            });
        }
      }
    });

    it('describes request bodies with the DTO classes that validate them', () => {
      const sync = document.paths['/customers/sync']!.post!;
      expect(sync.requestBody!.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/CustomerSyncRequestDto',
      });
      const request = document.components.schemas['CustomerSyncRequestDto']!;
      expect(request.required).toEqual(['customers']);
      expect(request.properties!['customers']).toMatchObject({
        type: 'array',
        items: { $ref: '#/components/schemas/CustomerSyncItemDto' },
        minItems: 1,
        maxItems: 1000,
      });
      const item = document.components.schemas['CustomerSyncItemDto']!;
      expect(item.required).toEqual(['customer_number']);
      expect(Object.keys(item.properties!)).toEqual(
        expect.arrayContaining(['payment_terms', 'payment_term', 'addresses', 'addresses_sync_mode', 'delete']),
      );
      expect(item.properties!['payment_term']).toMatchObject({ $ref: '#/components/schemas/PaymentTermReferenceDto' });
      expect(document.components.schemas['AddressDto']!.required).toEqual(
        expect.arrayContaining(['title', 'name', 'address', 'zip', 'city', 'country']),
      );
    });

    it('documents every field the customer presenter returns', () => {
      // The response schemas are declared by hand; this keeps them honest against the presenter.
      const customerSchema = document.components.schemas['Customer']!;
      const presented = Object.keys(
        presentCustomer(
          {
            id: 1,
            brandId: 1,
            customerNumber: 'C',
            name: 'N',
            currency: 'EUR',
            discountBasisPoints: 0,
            active: true,
            customerGroupId: null,
            paymentTermsId: null,
            email: null,
            telephone: null,
            vatNumber: null,
            eoriNumber: null,
            addresses: [],
            createdAt: '',
            updatedAt: '',
          },
          {
            includes: ['addresses', 'customer_group', 'payment_terms'],
            customerGroups: new Map(),
            paymentTerms: new Map(),
          },
        ),
      );
      expect(Object.keys(customerSchema.properties!).sort()).toEqual(presented.sort());
    });

    it('serves Swagger UI from /docs/ (and redirects /docs there), assets included', async () => {
      const redirect = await request(t.server).get('/docs');
      expect(redirect.status).toBe(301);
      expect(redirect.headers['location']).toBe('/docs/');
      const page = await request(t.server).get('/docs/');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('swagger-ui');
      expect(page.text).not.toMatch(/https?:\/\/(cdn|unpkg)/);
      const init = await request(t.server).get('/docs/swagger-ui-init.js');
      expect(init.text).toContain('/openapi.json');
      const bundle = await request(t.server).get('/docs/swagger-ui-bundle.js');
      expect(bundle.status).toBe(200);
    });
  });
}

for (const dialect of testDialects()) {
  describe(`health against the database [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('answers /health with ok while the database answers, and 503 when it does not', async () => {
      const healthy = await request(t.server).get('/health');
      expect(healthy.status).toBe(200);
      expect(healthy.body).toEqual({ status: 'ok' });

      const unreachable: Storage = { ...t.storage, ping: async () => false };
      const sick = buildApp(unreachable, t.clock);
      const response = await request(sick).get('/health');
      expect(response.status).toBe(503);
      expect(response.body.errors[0]).toMatchObject({ status: 503, code: 'storage_unavailable' });
      await requestLogOf(sick).flush();
    });
  });
}
