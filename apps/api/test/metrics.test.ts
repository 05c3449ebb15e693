import request from 'supertest';
import { BulkOperation, createWebhookEndpoint } from '@brand/core';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { ApiMetrics } from '../src/metrics/api-metrics';
import { QUEUE_DEPTHS_FRESH_MS, queueDepthsOf } from '../src/metrics/queue-depths';
import { newCustomer } from './support/customers';
import { Integrator, createIntegrator } from './support/integrator';
import { buildApp, silentLogger, useTestApp } from './support/test-app';

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

    it('samples the pending webhook deliveries and the bulk operations by status of every brand, kept a few seconds', async () => {
      let nowMs = 0;
      metrics.watchQueues(queueDepthsOf(t.storage.uow, { logger: silentLogger, now: () => nowMs }));
      // Brands of their own (the earlier tests used up the first brand's rate limit); each brand's
      // queues count: the depths are the whole database's.
      const [first, other] = [await createIntegrator(t.storage, t.clock), await createIntegrator(t.storage, t.clock)];
      for (const integrator of [first, other])
        await createWebhookEndpoint(
          { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher },
          { brandId: integrator.brandId, url: 'https://erp.example.com/hooks', events: ['customer.created'] },
        );
      // Each customer's event queues a delivery to its brand's endpoint (no dispatcher runs here).
      expect((await request(app).post('/v10/customers').set(first.headers).send(newCustomer('Q-1'))).status).toBe(201);
      expect((await request(app).post('/v10/customers').set(other.headers).send(newCustomer('Q-2'))).status).toBe(201);
      const operation = (brandId: number, id: number): BulkOperation => ({
        id,
        brandId,
        type: 'customers.sync',
        status: 'receiving',
        userId: null,
        totalLines: 0,
        processedLines: 0,
        failedLines: 0,
        createdAt: t.clock.now(),
        startedAt: null,
        finishedAt: null,
        error: null,
      });
      await t.storage.uow.run(async (tx) => {
        const ids = await tx.ids.next('bulk_operations', 3);
        await tx.bulkOperations.insert(operation(first.brandId, ids[0]!));
        await tx.bulkOperations.queue(first.brandId, ids[0]!, 0);
        await tx.bulkOperations.insert(operation(other.brandId, ids[1]!));
        await tx.bulkOperations.queue(other.brandId, ids[1]!, 0);
        await tx.bulkOperations.insert(operation(other.brandId, ids[2]!));
      });

      const text = await metrics.registry.metrics();
      expect(sampleOf(text, 'webhook_deliveries_pending')).toBe(2);
      expect(sampleOf(text, 'bulk_operations', { status: 'queued' })).toBe(2);
      expect(sampleOf(text, 'bulk_operations', { status: 'receiving' })).toBe(1);
      expect(sampleOf(text, 'bulk_operations', { status: 'running' })).toBe(0);

      // A scrape within the freshness answers the same reading; a later one reads again.
      expect((await request(app).post('/v10/customers').set(first.headers).send(newCustomer('Q-3'))).status).toBe(201);
      expect(sampleOf(await metrics.registry.metrics(), 'webhook_deliveries_pending')).toBe(2);
      nowMs += QUEUE_DEPTHS_FRESH_MS;
      expect(sampleOf(await metrics.registry.metrics(), 'webhook_deliveries_pending')).toBe(3);
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

describe('queue gauges while the database cannot be read', () => {
  it('have no sample, and the scrape still answers with everything else', async () => {
    const metrics = new ApiMetrics();
    const down = () => Promise.reject(new Error('connection refused'));
    metrics.watchQueues(queueDepthsOf({ read: down, run: down }, { logger: silentLogger }));
    metrics.storageFault();
    const text = await metrics.registry.metrics();
    expect(text).toContain('# TYPE webhook_deliveries_pending gauge');
    expect(sampleOf(text, 'webhook_deliveries_pending')).toBeUndefined();
    expect(text).not.toMatch(/^bulk_operations\{/m);
    expect(sampleOf(text, 'storage_unavailable_total')).toBe(1);
  });
});
