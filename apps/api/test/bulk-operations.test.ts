import request from 'supertest';
import { runNextBulkOperation } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { bulkRunnerDeps } from '../src/bulk/bulk-runner';
import { imageServicesFrom } from '../src/infrastructure/image-services';
import { Integrator, createIntegrator } from './support/integrator';
import { withScopes } from './support/scoped-token';
import { TestContext, testConfig, useTestApp } from './support/test-app';

const NDJSON = 'application/x-ndjson';

const ndjson = (items: unknown[]): string => `${items.map((item) => JSON.stringify(item)).join('\n')}\n`;
const customer = (n: number, extra: Record<string, unknown> = {}) => ({
  customer_number: `C-${n}`,
  name: `Customer ${n}`,
  currency: 'EUR',
  ...extra,
});

/** Runs queued operations in this process until none is left, as a runner of an API process does. */
async function runAll(t: TestContext): Promise<void> {
  const deps = bulkRunnerDeps({ storage: t.storage, clock: t.clock, images: imageServicesFrom(testConfig().images) });
  while (await runNextBulkOperation(deps, { owner: 'test-runner', leaseMs: 60_000 }));
}

async function submit(
  t: TestContext,
  who: Integrator,
  type: string,
  body: string,
  headers: Record<string, string> = {},
) {
  return request(t.server)
    .post(`/v10/bulk-operations?type=${type}`)
    .set(who.headers)
    .set(headers)
    .set('Content-Type', NDJSON)
    .send(body);
}

for (const dialect of testDialects()) {
  describe(`bulk operations [${dialect}]`, () => {
    const t = useTestApp(dialect, { bulk: { maxBytes: 32_768, leaseMs: 60_000 } });
    let brand: Integrator;

    beforeEach(async () => {
      brand = await createIntegrator(t.storage, t.clock);
    });

    it('queues an upload, runs it, and reports every line in order with a bad line failing alone', async () => {
      const body = [
        JSON.stringify(customer(1)),
        'this is not json',
        JSON.stringify({ customer_number: 'C-3', name: 7 }),
        '',
        JSON.stringify(customer(4)),
      ].join('\n');
      const submitted = await submit(t, brand, 'customers.sync', body);
      expect(submitted.status).toBe(202);
      const operation = submitted.body.bulk_operation;
      expect(operation).toMatchObject({ type: 'customers.sync', status: 'queued', total_lines: 4, processed_lines: 0 });
      expect(submitted.headers['location']).toBe(`/v10/bulk-operations/${operation.id}`);

      await runAll(t);

      const read = await request(t.server).get(`/v10/bulk-operations/${operation.id}`).set(brand.headers);
      expect(read.status).toBe(200);
      expect(read.body.bulk_operation).toMatchObject({
        status: 'succeeded',
        total_lines: 4,
        processed_lines: 4,
        failed_lines: 2,
        finished_at: expect.any(String),
      });

      const results = await request(t.server)
        .get(`/v10/bulk-operations/${operation.id}/results`)
        .set(brand.headers)
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => done(null, text));
        });
      expect(results.status).toBe(200);
      expect(results.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const lines = (results.body as string)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((l) => [l['line'], l['status']])).toEqual([
        [1, 'ok'],
        [2, 'failed'],
        [3, 'failed'],
        [5, 'ok'],
      ]);
      expect(lines[1]!['errors']).toEqual([expect.objectContaining({ code: 'invalid_json' })]);
      expect(lines[2]!['errors']).toEqual([
        expect.objectContaining({ code: 'validation_failed', source: { pointer: '/name' } }),
      ]);

      const customers = await request(t.server).get('/v10/customers?limit=100').set(brand.headers);
      expect(customers.body.customers.map((c: { customer_number: string }) => c.customer_number).sort()).toEqual([
        'C-1',
        'C-4',
      ]);
      expect(lines[0]!['id']).toBe(
        customers.body.customers.find((c: { customer_number: string }) => c.customer_number === 'C-1').id,
      );

      const events = await request(t.server).get('/v10/events?limit=100').set(brand.headers);
      const types = events.body.events.map((e: { type: string }) => e.type);
      expect(types.filter((type: string) => type === 'customer.created')).toHaveLength(2);
      const finished = events.body.events.filter((e: { type: string }) => e.type === 'bulk_operation.finished');
      expect(finished).toHaveLength(1);
      expect(finished[0].data.object).toMatchObject({ id: operation.id, status: 'succeeded', failed_lines: 2 });
    });

    it('applies a file of products through the product sync, in chunks', async () => {
      const items = Array.from({ length: 230 }, (_, i) => ({
        item_number: `P-${i}`,
        name: `Product ${i}`,
        variants: [{ sku: `P-${i}-M`, attributes: { size: 'M' } }],
      }));
      const submitted = await submit(t, brand, 'products.sync', ndjson(items));
      if (submitted.status !== 202) throw new Error(JSON.stringify(submitted.body));
      await runAll(t);
      const read = await request(t.server)
        .get(`/v10/bulk-operations/${submitted.body.bulk_operation.id}`)
        .set(brand.headers);
      expect(read.body.bulk_operation).toMatchObject({ status: 'succeeded', processed_lines: 230 });
    });

    it('lists operations, and answers another brand 404', async () => {
      const submitted = await submit(
        t,
        brand,
        'suppliers.sync',
        ndjson([{ supplier_number: 'S-1', name: 'S', currency: 'EUR' }]),
      );
      expect(submitted.status).toBe(202);
      const list = await request(t.server).get('/v10/bulk-operations').set(brand.headers);
      expect(list.status).toBe(200);
      expect(list.body.bulk_operations.map((o: { id: number }) => o.id)).toEqual([submitted.body.bulk_operation.id]);

      const other = await createIntegrator(t.storage, t.clock);
      const id = submitted.body.bulk_operation.id;
      expect((await request(t.server).get(`/v10/bulk-operations/${id}`).set(other.headers)).status).toBe(404);
      expect((await request(t.server).get(`/v10/bulk-operations/${id}/results`).set(other.headers)).status).toBe(404);
      expect((await request(t.server).post(`/v10/bulk-operations/${id}/cancel`).set(other.headers)).status).toBe(404);
      expect((await request(t.server).get('/v10/bulk-operations').set(other.headers)).body.bulk_operations).toEqual([]);
    });

    it('cancels a queued operation, then answers 409', async () => {
      const submitted = await submit(t, brand, 'customers.sync', ndjson([customer(1)]));
      const id = submitted.body.bulk_operation.id;
      const cancelled = await request(t.server).post(`/v10/bulk-operations/${id}/cancel`).set(brand.headers);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.bulk_operation).toMatchObject({ status: 'cancelled', finished_at: expect.any(String) });
      await runAll(t);
      const again = await request(t.server).post(`/v10/bulk-operations/${id}/cancel`).set(brand.headers);
      expect(again.status).toBe(409);
      const customers = await request(t.server).get('/v10/customers').set(brand.headers);
      expect(customers.body.customers).toEqual([]);
    });

    it('refuses a file over BULK_MAX_BYTES with 413 and keeps nothing', async () => {
      const big = ndjson(Array.from({ length: 1000 }, (_, i) => customer(i)));
      const refused = await submit(t, brand, 'customers.sync', big);
      expect(refused.status).toBe(413);
      expect(refused.body.errors[0].code).toBe('payload_too_large');
      const list = await request(t.server).get('/v10/bulk-operations').set(brand.headers);
      expect(list.body.bulk_operations).toEqual([]);
    });

    it('refuses an unknown type, a JSON body and a token without the scope of the type', async () => {
      const unknown = await submit(t, brand, 'orders.sync', ndjson([customer(1)]));
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source).toEqual({ parameter: 'type' });
      const json = await request(t.server)
        .post('/v10/bulk-operations?type=customers.sync')
        .set(brand.headers)
        .send({ customers: [] });
      expect(json.status).toBe(415);
      const catalogOnly = await withScopes(t.storage, t.clock, brand, ['catalog:write', 'catalog:read']);
      const forbidden = await submit(t, catalogOnly, 'customers.sync', ndjson([customer(1)]));
      expect(forbidden.status).toBe(403);
      const list = await request(t.server).get('/v10/bulk-operations').set(brand.headers);
      expect(list.body.bulk_operations).toEqual([]);
    });

    it('replays a submission under the same Idempotency-Key and refuses another file under it', async () => {
      const file = ndjson([customer(1)]);
      const first = await submit(t, brand, 'customers.sync', file, { 'Idempotency-Key': 'bulk-1' });
      const again = await submit(t, brand, 'customers.sync', file, { 'Idempotency-Key': 'bulk-1' });
      expect(first.status).toBe(202);
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const other = await submit(t, brand, 'customers.sync', ndjson([customer(2)]), { 'Idempotency-Key': 'bulk-1' });
      expect(other.status).toBe(422);
      const list = await request(t.server).get('/v10/bulk-operations').set(brand.headers);
      expect(list.body.bulk_operations).toHaveLength(1);
    });
  });
}
