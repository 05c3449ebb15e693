import request from 'supertest';
import { revokeAccessToken } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

for (const dialect of oneTestDialect()) {
  describe(`authentication [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let integrator: Integrator;

    beforeAll(async () => {
      integrator = await createIntegrator(t.storage, t.clock);
    });

    it('accepts a bearer token with the key of its app', async () => {
      const response = await request(t.server).get('/v10/customers').set(integrator.headers);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ customers: [], has_more: false, next_cursor: null, total: 0 });
    });

    it('accepts the token as the access_token query parameter', async () => {
      const response = await request(t.server)
        .get(`/v10/customers?access_token=${encodeURIComponent(integrator.accessToken)}`)
        .set('X-Service-App-Key', integrator.appKey);
      expect(response.status).toBe(200);
      expect(response.body.customers).toEqual([]);
    });

    it('answers 401 with a Bearer challenge when no token is sent', async () => {
      const response = await request(t.server).get('/v10/customers').set('X-Service-App-Key', integrator.appKey);
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="brand"');
      expect(response.body).toEqual({
        errors: [
          {
            status: 401,
            code: 'unauthenticated',
            title: 'Unauthorized',
            detail: expect.stringContaining('access token is required'),
          },
        ],
      });
    });

    it('answers 401 invalid_token for an unknown token', async () => {
      const response = await request(t.server)
        .get('/v10/customers')
        .set({ ...integrator.headers, Authorization: 'Bearer not-a-real-token' });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="brand", error="invalid_token"/);
      expect(response.body.errors[0]).toMatchObject({
        status: 401,
        code: 'unauthenticated',
        detail: 'The access token is not valid',
      });
    });

    it('answers 401 when the app key is missing or belongs to another app', async () => {
      const other = await createIntegrator(t.storage, t.clock);
      const missing = await request(t.server)
        .get('/v10/customers')
        .set('Authorization', integrator.headers.Authorization);
      expect(missing.status).toBe(401);
      expect(missing.body.errors[0].detail).toBe('The X-Service-App-Key header is required');
      const foreign = await request(t.server)
        .get('/v10/customers')
        .set({ ...integrator.headers, 'X-Service-App-Key': other.appKey });
      expect(foreign.status).toBe(401);
      expect(foreign.headers['www-authenticate']).toContain('error="invalid_token"');
      expect(foreign.body.errors[0].detail).toBe('The app key does not belong to the app of this access token');
    });

    it('refuses a revoked token from the very next request', async () => {
      const doomed = await createIntegrator(t.storage, t.clock);
      expect((await request(t.server).get('/v10/customers').set(doomed.headers)).status).toBe(200);
      await revokeAccessToken(
        { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher },
        { tokenId: doomed.tokenId },
      );
      const response = await request(t.server).get('/v10/customers').set(doomed.headers);
      expect(response.status).toBe(401);
      expect(response.body.errors[0].detail).toBe('The access token has been revoked');
    });

    it('refuses an expired token', async () => {
      const shortLived = await createIntegrator(t.storage, t.clock, { expiresInSeconds: 60 });
      expect((await request(t.server).get('/v10/customers').set(shortLived.headers)).status).toBe(200);
      t.clock.advance(61_000);
      const response = await request(t.server).get('/v10/customers').set(shortLived.headers);
      expect(response.status).toBe(401);
      expect(response.body.errors[0].detail).toBe('The access token has expired');
    });

    it('answers 400 invalid_request when the token is sent both in the header and the query', async () => {
      const response = await request(t.server)
        .get(`/v10/customers?access_token=${encodeURIComponent(integrator.accessToken)}`)
        .set(integrator.headers);
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ code: 'invalid_request' });
    });

    it('answers 403 naming the missing scopes when the token lacks them', async () => {
      const reader = await createIntegrator(t.storage, t.clock, { scopes: ['customers:read'] });
      const response = await request(t.server)
        .post('/customers/sync')
        .set(reader.headers)
        .send({ customers: [{ customer_number: 'C1' }] });
      expect(response.status).toBe(403);
      expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
      expect(response.body).toEqual({
        errors: [
          {
            status: 403,
            code: 'insufficient_scope',
            title: 'Forbidden',
            detail: 'This access token lacks the scope customers:write',
            meta: { missing_scopes: ['customers:write'] },
          },
        ],
      });
      const listed = await request(t.server).get('/v10/customers').set(reader.headers);
      expect(listed.body.customers).toEqual([]);
    });

    it('authenticates every path of a surface before routing, unknown and trailing-slash paths too', async () => {
      for (const path of [
        '/v10/customers/',
        '/v10/unknown',
        '/3pl/shipments',
        '/v10/external-return-portals/abc/returns',
        '/production/orders',
      ]) {
        const stranger = await request(t.server).get(path);
        expect([path, stranger.status]).toEqual([path, 401]);
      }
      expect((await request(t.server).get('/v10/customers/').set(integrator.headers)).status).toBe(200);
      expect((await request(t.server).get('/3pl/unknown').set(integrator.headers)).status).toBe(404);
    });

    describe('older interface (/api)', () => {
      it('answers 400 without X-ServiceAppIdentifier', async () => {
        const response = await request(t.server)
          .get('/api/categories')
          .set('Authorization', integrator.headers.Authorization);
        expect(response.status).toBe(400);
        expect(response.body.errors[0]).toMatchObject({
          code: 'missing_app_identifier',
          source: { header: 'X-ServiceAppIdentifier' },
        });
      });

      it('answers 400 for a blank X-ServiceAppIdentifier', async () => {
        const response = await request(t.server)
          .get('/api/categories')
          .set({ Authorization: integrator.headers.Authorization, 'X-ServiceAppIdentifier': '   ' });
        expect(response.status).toBe(400);
      });

      it('answers 401 without a token even with the identifier', async () => {
        const response = await request(t.server)
          .get('/api/categories')
          .set('X-ServiceAppIdentifier', 'Acme ERP 1.0 (ops@acme.example)');
        expect(response.status).toBe(401);
      });

      it('needs no app key, and answers 415 to a body that is not JSON', async () => {
        const response = await request(t.server)
          .post('/api/categories')
          .set({
            Authorization: integrator.headers.Authorization,
            'X-ServiceAppIdentifier': 'Acme ERP 1.0 (ops@acme.example)',
          })
          .set('Content-Type', 'text/plain')
          .send('category=Shoes');
        expect(response.status).toBe(415);
        expect(response.body.errors[0]).toMatchObject({ status: 415, code: 'unsupported_media_type' });
      });

      it('authenticates with token and identifier and then answers 404 for a path the older interface does not have', async () => {
        const response = await request(t.server).get('/api/customers').set({
          Authorization: integrator.headers.Authorization,
          'X-ServiceAppIdentifier': 'Acme ERP 1.0 (ops@acme.example)',
        });
        expect(response.status).toBe(404);
        expect(response.body.errors[0].code).toBe('route_not_found');
      });
    });
  });
}
