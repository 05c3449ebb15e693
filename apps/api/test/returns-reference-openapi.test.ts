// Response shapes are checked on every response a test receives by test/support/response-conformance.ts.
import request from 'supertest';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { useTestApp } from './support/test-app';

interface Operation {
  security: Record<string, string[]>[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { content?: unknown }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

const ROUTES: [method: string, path: string, scope: string, status: string][] = [
  ['post', '/v10/claim-causes', 'returns:write', '201'],
  ['get', '/v10/claim-causes', 'returns:read', '200'],
  ['post', '/v10/return-portals', 'returns:write', '201'],
  ['get', '/v10/return-portals', 'returns:read', '200'],
];

for (const dialect of oneTestDialect()) {
  describe(`OpenAPI of claim causes and return portals [${dialect}]`, () => {
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
    });

    it('describes the request bodies with their DTOs', () => {
      expect(doc.components.schemas['CreateClaimCauseDto']!.required).toEqual(['code', 'name']);
      expect(doc.components.schemas['CreateReturnPortalDto']!.required).toEqual(['name', 'type']);
      expect(Object.keys(doc.components.schemas['CreateReturnPortalDto']!.properties!)).toEqual([
        'name',
        'type',
        'requires_claim_causes',
      ]);
    });
  });
}
