import pino from 'pino';
import request from 'supertest';
import { FixedClock, Principal, UnitOfWork } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { buildApp, useTestApp } from './support/test-app';

for (const dialect of oneTestDialect()) {
  describe(`wire conventions [${dialect}]`, () => {
    const t = useTestApp(dialect, { bodyLimit: '2kb' });
    let integrator: Integrator;

    beforeAll(async () => {
      integrator = await createIntegrator(t.storage, t.clock);
    });

    describe('X-Request-Id', () => {
      it('is generated for every response, errors included', async () => {
        const ok = await request(t.server).get('/health');
        const failed = await request(t.server).get('/nowhere');
        expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(failed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(ok.headers['x-request-id']).not.toBe(failed.headers['x-request-id']);
      });

      it('echoes a sane incoming id and replaces an unsafe one', async () => {
        const kept = await request(t.server).get('/health').set('X-Request-Id', 'erp-run-42.7');
        expect(kept.headers['x-request-id']).toBe('erp-run-42.7');
        const replaced = await request(t.server).get('/health').set('X-Request-Id', 'bad id <script>');
        expect(replaced.headers['x-request-id']).not.toBe('bad id <script>');
        expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      });
    });

    it('answers 400 invalid_json to unparseable JSON and writes nothing', async () => {
      const response = await request(t.server)
        .post('/customers/sync')
        .set(integrator.headers)
        .set('Content-Type', 'application/json')
        .send('{"customers": [ {"customer_number": "C1", }');
      expect(response.status).toBe(400);
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors[0]).toMatchObject({ status: 400, code: 'invalid_json', title: 'Bad request' });
      const listed = await request(t.server).get('/v10/customers').set(integrator.headers);
      expect(listed.body.total).toBe(0);
    });

    it('answers 404 route_not_found to an unknown path', async () => {
      const response = await request(t.server).get('/v10/warehouses').set(integrator.headers);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        errors: [
          {
            status: 404,
            code: 'route_not_found',
            title: 'Not found',
            detail: expect.stringContaining('GET /v10/warehouses'),
          },
        ],
      });
    });

    it('matches paths case-sensitively, so /V10 is not /v10', async () => {
      const response = await request(t.server).get('/V10/customers');
      expect(response.status).toBe(404);
    });

    it('parses the query string once per request: every later read gets the same object', () => {
      // A request as Express builds it: an object inheriting the app's request prototype.
      const req = Object.create((t.app as unknown as { request: object }).request) as { url: string; query: unknown };
      req.url = '/v10/customers?limit=5&filter[name][eq]=Ann&access_token=abc';
      const first = req.query;
      expect(first).toEqual({ limit: '5', filter: { name: { eq: 'Ann' } }, access_token: 'abc' });
      expect(req.query).toBe(first);
      // Another request parses its own query.
      const other = Object.create((t.app as unknown as { request: object }).request) as { url: string; query: unknown };
      other.url = '/v10/customers?limit=7';
      expect(other.query).toEqual({ limit: '7' });
    });

    it('answers HEAD on a list like GET, without a body', async () => {
      const response = await request(t.server).head('/v10/customers').set(integrator.headers);
      expect(response.status).toBe(200);
      expect(response.text).toBeUndefined();
    });

    it('answers 404 to an unknown path outside every surface without asking for a token', async () => {
      const response = await request(t.server).get('/wp-login.php');
      expect(response.status).toBe(404);
    });

    it('answers 405 with Allow to a known path with another method', async () => {
      const response = await request(t.server).delete('/v10/customers').set(integrator.headers);
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
      expect(response.body.errors[0]).toMatchObject({
        status: 405,
        code: 'method_not_allowed',
        meta: { allowed_methods: ['GET', 'HEAD', 'POST', 'OPTIONS'] },
      });

      const groups = await request(t.server).put('/v10/customer-groups').set(integrator.headers).send({});
      expect(groups.status).toBe(405);
      expect(groups.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
    });

    it('answers OPTIONS with the allowed methods', async () => {
      const response = await request(t.server).options('/production/suppliers/sync').set(integrator.headers);
      expect(response.status).toBe(204);
      expect(response.headers['allow']).toBe('POST, OPTIONS');
    });

    it('answers 413 to a body over the limit', async () => {
      const customers = Array.from({ length: 40 }, (_, i) => ({
        customer_number: `BIG-${i}`,
        name: 'A customer with a long enough name',
        currency: 'EUR',
      }));
      const response = await request(t.server).post('/customers/sync').set(integrator.headers).send({ customers });
      expect(response.status).toBe(413);
      expect(response.body.errors[0]).toMatchObject({
        status: 413,
        code: 'payload_too_large',
        detail: expect.stringContaining('2kb'),
      });
    });

    it('answers 415 to a body that is not declared as JSON, on every surface', async () => {
      const sync = await request(t.server)
        .post('/customers/sync')
        .set(integrator.headers)
        .set('Content-Type', 'text/plain')
        .send('customers');
      expect(sync.status).toBe(415);
      expect(sync.body.errors[0]).toMatchObject({ code: 'unsupported_media_type', source: { header: 'Content-Type' } });
      const v10 = await request(t.server)
        .post('/v10/customer-groups')
        .set(integrator.headers)
        .type('form')
        .send({ code: 'X', name: 'Y' });
      expect(v10.status).toBe(415);
      const groups = await request(t.server).get('/v10/customer-groups').set(integrator.headers);
      expect(groups.body.customer_groups).toEqual([]);
    });

    it('accepts a POST without a body and without Content-Type (the body is then empty)', async () => {
      const response = await request(t.server).post('/v10/customer-groups').set(integrator.headers);
      expect(response.status).toBe(422);
      expect(response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
        '/code',
        '/name',
      ]);
    });

    it('answers 422 with one error per invalid field, each pointing at it', async () => {
      const response = await request(t.server)
        .post('/v10/payment-terms')
        .set(integrator.headers)
        .send({ code: 42, name: 'Net 30', days: 'thirty' });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        errors: [
          {
            status: 422,
            code: 'validation_failed',
            title: 'Validation error',
            detail: 'code must be a string',
            source: { pointer: '/code' },
          },
          {
            status: 422,
            code: 'validation_failed',
            title: 'Validation error',
            detail: expect.stringMatching(/^days must be an integer/),
            source: { pointer: '/days' },
          },
        ],
      });
    });

    it('answers 422 when the body is JSON but not an object', async () => {
      const response = await request(t.server)
        .post('/v10/payment-terms')
        .set(integrator.headers)
        .send([{ code: 'N30' }]);
      expect(response.status).toBe(422);
      expect(response.body.errors[0].detail).toBe('The request body must be a JSON object');
    });

    it('answers 422 duplicate when a business rule refuses the request', async () => {
      const first = await request(t.server)
        .post('/v10/customer-groups')
        .set(integrator.headers)
        .send({ code: 'VIP', name: 'Very important' });
      expect(first.status).toBe(201);
      const again = await request(t.server)
        .post('/v10/customer-groups')
        .set(integrator.headers)
        .send({ code: 'VIP', name: 'Again' });
      expect(again.status).toBe(422);
      expect(again.body.errors[0]).toMatchObject({ code: 'duplicate', source: { pointer: '/code' } });
    });

    it('answers 500 without details when something unexpected fails, and logs the cause with the request id', async () => {
      const principal: Principal = {
        brandId: integrator.brandId,
        userId: integrator.userId,
        appId: integrator.appId,
        tokenId: integrator.tokenId,
        scopes: ['customers:read'],
        appInternalCode: null,
      };
      const exploding: UnitOfWork = {
        run: () => Promise.reject(new Error('connection to /var/secret/db.sqlite lost')),
        read: () => Promise.reject(new Error('connection to /var/secret/db.sqlite lost')),
      };
      const logLines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
      const broken = buildApp({ ...t.storage, uow: exploding }, new FixedClock(), {
        logger,
        tokenVerifier: { verify: async () => principal },
      });
      const response = await request(broken).get('/v10/customers').set('Authorization', 'Bearer anything');
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        errors: [
          {
            status: 500,
            code: 'internal_error',
            title: 'Internal server error',
            detail: expect.stringContaining('retry later'),
          },
        ],
      });
      expect(JSON.stringify(response.body)).not.toMatch(/secret|lost|at .*\.ts/);
      const logged = logLines.map(
        (line) => JSON.parse(line) as { level: number; req?: { id: string }; err?: { message: string; stack: string } },
      );
      const failure = logged.find((entry) => entry.err !== undefined);
      expect(failure).toMatchObject({
        level: 50,
        req: { id: response.headers['x-request-id'] },
        err: { message: 'connection to /var/secret/db.sqlite lost' },
      });
      expect(failure?.err?.stack).toContain('Error: connection');
    });

    it('answers 503 with Retry-After on every route but /health while in maintenance', async () => {
      const maintained = buildApp(t.storage, t.clock, { config: { maintenanceMode: true } });
      const response = await request(maintained).get('/v10/customers').set(integrator.headers);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('300');
      expect(response.body.errors[0]).toMatchObject({ status: 503, code: 'maintenance', title: 'Service unavailable' });
      expect((await request(maintained).get('/openapi.json')).status).toBe(503);
      const health = await request(maintained).get('/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok' });
    });
  });
}
