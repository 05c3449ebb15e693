import request from 'supertest';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { ApiMetrics } from '../src/metrics/api-metrics';
import { newCustomer } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { buildApp, useTestApp } from './support/test-app';

/** The value of one sample of the Prometheus text, by its name and exact labels ({} for none). */
function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = (match[2] ?? '')
      .split(/,(?=\w+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (got === wanted) return Number(match[3]);
  }
  return undefined;
}

for (const dialect of testDialects()) {
  describe(`metrics of one process [${dialect}]`, () => {
    const metrics = new ApiMetrics();
    // The storage reports retries and committed events to the metrics, as the server opens it.
    const t = useTestApp(dialect, { rateLimit: { windowMs: 3_600_000, max: 5 } }, (d) =>
      openTestStorage(d, { observer: metrics.storageObserver() }),
    );
    let brand: Integrator;
    let app: ReturnType<typeof buildApp>;

    beforeAll(async () => {
      brand = await createIntegrator(t.storage, t.clock);
      app = buildApp(t.storage, t.clock, { metrics, config: { rateLimit: { windowMs: 3_600_000, max: 5 } } });
    });
    afterAll(() => requestLogOf(app).flush());

    it('counts requests by route template, never by raw path, and unknown paths as unmatched', async () => {
      const created = await request(app).post('/v10/customers').set(brand.headers).send(newCustomer('C-1'));
      expect(created.status).toBe(201);
      const id = created.body.customer.id as number;
      expect((await request(app).get(`/v10/customers/${id}`).set(brand.headers)).status).toBe(200);
      expect((await request(app).get('/v10/customers/999999').set(brand.headers)).status).toBe(404);
      expect((await request(app).get('/no/such/path')).status).toBe(404);
      expect((await request(app).delete('/health')).status).toBe(405);

      const text = await metrics.registry.metrics();
      expect(sampleOf(text, 'http_requests_total', { method: 'POST', route: '/v10/customers', status: '201' })).toBe(1);
      expect(sampleOf(text, 'http_requests_total', { method: 'GET', route: '/v10/customers/:id', status: '200' })).toBe(
        1,
      );
      expect(sampleOf(text, 'http_requests_total', { method: 'GET', route: '/v10/customers/:id', status: '404' })).toBe(
        1,
      );
      expect(sampleOf(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
      expect(sampleOf(text, 'http_requests_total', { method: 'DELETE', route: '/health', status: '405' })).toBe(1);
      expect(text).not.toContain(`/v10/customers/${id}"`);
      expect(text).not.toContain('/v10/customers/999999');
      expect(
        sampleOf(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/v10/customers/:id' }),
      ).toBe(2);
      // The committed customer's event, counted by type.
      expect(sampleOf(text, 'events_total', { type: 'customer.created' })).toBe(1);
    });

    it('counts refusals by a rate limit and answers 503 of the database', async () => {
      for (let i = 0; i < 7; i += 1) await request(app).get('/v10/customers').set(brand.headers);
      const sick = buildApp({ ...t.storage, ping: async () => false }, t.clock, { metrics });
      expect((await request(sick).get('/health')).status).toBe(503);
      await requestLogOf(sick).flush();

      const text = await metrics.registry.metrics();
      // Five of this test's requests and the first test's four counted against the limit of five per window.
      expect(sampleOf(text, 'rate_limited_total')).toBeGreaterThanOrEqual(2);
      expect(sampleOf(text, 'rate_limited_total')).toBe(
        sampleOf(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '429' }) ?? 0,
      );
      expect(sampleOf(text, 'storage_unavailable_total')).toBe(1);
    });

    it('has every metric of DESIGN §17 and the runtime’s own', async () => {
      metrics.webhookOutcomes({ succeeded: 2, retrying: 1, failed: 0 });
      const text = await metrics.registry.metrics();
      for (const name of [
        'http_requests_total',
        'http_request_duration_seconds',
        'storage_unavailable_total',
        'transaction_retries_total',
        'rate_limited_total',
        'webhook_deliveries_total',
        'webhook_deliveries_pending',
        'events_total',
        'bulk_operations',
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
        'nodejs_gc_duration_seconds',
      ])
        expect(text).toContain(`# TYPE ${name} `);
      expect(sampleOf(text, 'webhook_deliveries_total', { outcome: 'succeeded' })).toBe(2);
      expect(sampleOf(text, 'webhook_deliveries_total', { outcome: 'retrying' })).toBe(1);
    });
  });
}
