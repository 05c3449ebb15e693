import request from 'supertest';
import { RequestLogEntry } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`request log [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let integrator: Integrator;

    const logOf = (who: Integrator): Promise<RequestLogEntry[]> =>
      t.storage.uow.read((r) => r.requestLogs.listForUser(who.brandId, who.userId, 50));

    beforeAll(async () => {
      integrator = await createIntegrator(t.storage, t.clock);
    });

    it('records an authenticated request on the token user with status, path and request id', async () => {
      const response = await request(t.server)
        .get('/v10/customers?limit=5')
        .set(integrator.headers)
        .set('X-Request-Id', 'sync-run-1');
      expect(response.status).toBe(200);
      await t.flushRequestLog();
      const [entry] = await logOf(integrator);
      expect(entry).toEqual({
        brandId: integrator.brandId,
        userId: integrator.userId,
        appId: integrator.appId,
        tokenId: integrator.tokenId,
        method: 'GET',
        path: '/v10/customers',
        // The route's template, which groups requests whatever ids their paths hold.
        route: '/v10/customers',
        status: 200,
        durationMs: expect.any(Number),
        requestId: 'sync-run-1',
        // No trace while tracing is off.
        traceId: null,
        createdAt: t.clock.now(),
      });
    });

    it('records failed requests too, and never the access_token query parameter', async () => {
      await request(t.server)
        .get(`/v10/nothing-here?access_token=${encodeURIComponent(integrator.accessToken)}`)
        .set('X-Service-App-Key', integrator.appKey);
      await t.flushRequestLog();
      const [entry] = await logOf(integrator);
      expect(entry).toMatchObject({ method: 'GET', path: '/v10/nothing-here', route: 'unmatched', status: 404 });
      expect(JSON.stringify(await logOf(integrator))).not.toContain(integrator.accessToken);
    });

    it('writes the buffer by itself after the flush interval', async () => {
      const other = await createIntegrator(t.storage, t.clock);
      await request(t.server).post('/v10/customer-groups').set(other.headers).send({ code: 'B2B', name: 'Wholesale' });
      // Nobody flushes: the buffer's own timer (200 ms) must write it. Looked for until it shows
      // or for 20 s, since a busy machine runs timers late (a buffer that never flushes fails).
      let logged = await logOf(other);
      for (const deadline = Date.now() + 20_000; logged.length === 0 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        logged = await logOf(other);
      }
      expect(logged).toEqual([expect.objectContaining({ method: 'POST', path: '/v10/customer-groups', status: 201 })]);
    });

    it('records nothing for requests without a valid token', async () => {
      const other = await createIntegrator(t.storage, t.clock);
      await request(t.server)
        .get('/v10/customers')
        .set({ ...other.headers, Authorization: 'Bearer wrong' });
      await t.flushRequestLog();
      expect(await logOf(other)).toEqual([]);
    });
  });
}
