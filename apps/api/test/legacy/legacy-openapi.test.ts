// Response shapes are checked on every response a test receives by test/support/response-conformance.ts.
import request from 'supertest';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { useTestApp } from '../support/test-app';

type Document = {
  paths: Record<string, Record<string, { security: Record<string, string[]>[]; parameters: { name: string }[] }>>;
};

for (const dialect of oneTestDialect()) {
  describe(`older interface in the OpenAPI document [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let document: Document;

    beforeAll(async () => {
      document = (await request(t.server).get('/openapi.json')).body as Document;
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
