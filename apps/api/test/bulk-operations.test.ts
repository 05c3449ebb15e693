import request from 'supertest';
import {
  BULK_CHUNK_MAX_ATTEMPTS,
  BulkItemApplier,
  BulkRunnerDeps,
  DomainError,
  appendBulkUploadLines,
  runNextBulkOperation,
  startBulkUpload,
  sweepAbandonedBulkUploads,
} from '@brand/core';
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

const LEASE_MS = 60_000;

/** What a runner of an API process runs on, over the test's storage and clock. */
const runnerDeps = (t: TestContext): BulkRunnerDeps =>
  bulkRunnerDeps({ storage: t.storage, clock: t.clock, images: imageServicesFrom(testConfig().images) });

/** Runs queued operations in this process until none is left, as a runner of an API process does. */
async function runAll(t: TestContext, deps: BulkRunnerDeps = runnerDeps(t)): Promise<void> {
  while (await runNextBulkOperation(deps, { owner: 'test-runner', leaseMs: LEASE_MS }));
}

/**
 * The runner's deps with the customers applier's `apply` replaced for `who`'s operations, told
 * the number of the call for that brand (from 1); other brands' (earlier tests') run as ever.
 */
function withCustomersApply(
  t: TestContext,
  who: Integrator,
  apply: (call: number, original: BulkItemApplier['apply']) => BulkItemApplier['apply'],
): BulkRunnerDeps {
  const deps = runnerDeps(t);
  const original = deps.appliers['customers.sync'];
  const originalApply: BulkItemApplier['apply'] = (input) => original.apply(input);
  let calls = 0;
  return {
    ...deps,
    appliers: {
      ...deps.appliers,
      'customers.sync': {
        ...original,
        apply: (input) => (input.brandId === who.brandId ? apply(++calls, originalApply)(input) : originalApply(input)),
      },
    },
  };
}

const readOperation = async (t: TestContext, who: Integrator, id: number) =>
  (await request(t.server).get(`/v10/bulk-operations/${id}`).set(who.headers)).body.bulk_operation;

const finishedEvents = async (t: TestContext, who: Integrator) =>
  (
    await request(t.server)
      .get(
        '/v10/events?limit=100&filter_groups[0][filters][0][key]=type&filter_groups[0][filters][0][operator]=eq&filter_groups[0][filters][0][value]=bulk_operation.finished',
      )
      .set(who.headers)
  ).body.events;

async function resultLines(t: TestContext, who: Integrator, id: number): Promise<Record<string, unknown>[]> {
  const results = await request(t.server)
    .get(`/v10/bulk-operations/${id}/results`)
    .set(who.headers)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => done(null, text));
    });
  return (results.body as string)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
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
    const t = useTestApp(dialect, { bulk: { maxBytes: 32_768, leaseMs: LEASE_MS } });
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

    it('fails an operation whose chunk fails unexpectedly on every attempt, keeping the chunks before it', async () => {
      const submitted = await submit(
        t,
        brand,
        'customers.sync',
        ndjson(Array.from({ length: 150 }, (_, i) => customer(i + 1))),
      );
      const id = submitted.body.bulk_operation.id;
      // The first chunk applies; the second throws what no line explains (a bug), every time.
      const deps = withCustomersApply(t, brand, (call, original) => async (input) => {
        if (call > 1) throw new Error('an unforeseen failure');
        return original(input);
      });
      await runAll(t, deps);

      const read = await readOperation(t, brand, id);
      expect(read).toMatchObject({
        status: 'failed',
        processed_lines: 100,
        failed_lines: 0,
        finished_at: expect.any(String),
        error: { code: 'chunk_failed', first_line: 101, last_line: 150, message: expect.any(String) },
      });
      expect(read.error.message).not.toContain('unforeseen');
      expect((await resultLines(t, brand, id)).map((r) => r['line'])).toEqual(
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      const customers = await request(t.server).get('/v10/customers?limit=1').set(brand.headers);
      expect(customers.body.total).toBe(100);
      const finished = await finishedEvents(t, brand);
      expect(finished).toHaveLength(1);
      expect(finished[0].data.object).toMatchObject({ id, status: 'failed', processed_lines: 100, error: read.error });
    });

    it('does not count a storage outage against a chunk: the operation goes on after it', async () => {
      const submitted = await submit(
        t,
        brand,
        'customers.sync',
        ndjson(Array.from({ length: 150 }, (_, i) => customer(i + 1))),
      );
      const id = submitted.body.bulk_operation.id;
      const outages = BULK_CHUNK_MAX_ATTEMPTS + 2;
      const deps = withCustomersApply(t, brand, (call, original) => async (input) => {
        if (call > 1 && call <= 1 + outages) throw new DomainError('storage_unavailable', 'the database restarts');
        return original(input);
      });
      for (let outage = 0; outage < outages; outage++) {
        await expect(runAll(t, deps)).rejects.toMatchObject({ code: 'storage_unavailable' });
        expect(await readOperation(t, brand, id)).toMatchObject({ status: 'running', processed_lines: 100 });
        // The runner gives up for now; the operation is taken up again once its lease lapsed.
        t.clock.advance(LEASE_MS + 1);
      }
      await runAll(t, deps);
      expect(await readOperation(t, brand, id)).toMatchObject({
        status: 'succeeded',
        processed_lines: 150,
        failed_lines: 0,
        error: null,
      });
      expect((await resultLines(t, brand, id)).every((r) => r['status'] === 'ok')).toBe(true);
    });

    it('cancels while a chunk runs: the chunk finishes, and the answer and the event carry its counts', async () => {
      const submitted = await submit(
        t,
        brand,
        'customers.sync',
        ndjson(Array.from({ length: 250 }, (_, i) => customer(i + 1))),
      );
      const id = submitted.body.bulk_operation.id;
      let chunkStarted!: () => void;
      const inChunk = new Promise<void>((resolve) => (chunkStarted = resolve));
      let letChunkGo!: () => void;
      const gate = new Promise<void>((resolve) => (letChunkGo = resolve));
      // The first chunk stops inside its transaction (the operation already held) until the cancel has reached the server.
      const applying = withCustomersApply(t, brand, (call, original) => async (input) => {
        if (call === 1) {
          chunkStarted();
          await gate;
        }
        return original(input);
      });
      let cancelAnswered!: () => void;
      const answered = new Promise<void>((resolve) => (cancelAnswered = resolve));
      // The runner reads each chunk's lines before its transaction; before the second chunk's it waits
      // for the cancel's answer. Without that wait the outcome is a race: on SQLite the cancel's
      // request queues for the one connection behind the chunk, and the runner's next read beside it.
      let chunkReads = 0;
      const deps: BulkRunnerDeps = {
        ...applying,
        uow: {
          run: (work) => applying.uow.run(work),
          read: async (work) => {
            if (++chunkReads === 2) await answered;
            return applying.uow.read(work);
          },
        },
      };
      const running = runAll(t, deps);
      await inChunk;

      // The chunk goes on once the cancel has reached the server (the only request then in flight).
      const cancelArrived = new Promise<void>((resolve) => t.server.once('request', () => resolve()));
      const cancelling = request(t.server)
        .post(`/v10/bulk-operations/${id}/cancel`)
        .set(brand.headers)
        .then((response) => response)
        .finally(cancelAnswered);
      await cancelArrived;
      letChunkGo();
      const [cancelled] = await Promise.all([cancelling, running]);

      expect(cancelled.status).toBe(200);
      expect(cancelled.body.bulk_operation).toMatchObject({ status: 'cancelled', processed_lines: 100 });
      expect(await readOperation(t, brand, id)).toEqual(cancelled.body.bulk_operation);
      const finished = await finishedEvents(t, brand);
      expect(finished).toHaveLength(1);
      expect(finished[0].data.object).toEqual(cancelled.body.bulk_operation);
      expect(await resultLines(t, brand, id)).toHaveLength(100);
      const customers = await request(t.server).get('/v10/customers?limit=1').set(brand.headers);
      expect(customers.body.total).toBe(100);
    });

    it('sweeps an upload its process left half received, with its lines, once it is old enough', async () => {
      // What a process killed in the middle of an upload leaves: an operation receiving, some lines.
      const deps = { uow: t.storage.uow, clock: t.clock };
      const abandoned = await startBulkUpload(deps, { brandId: brand.brandId, userId: null, type: 'customers.sync' });
      await appendBulkUploadLines(deps, {
        brandId: brand.brandId,
        operationId: abandoned.id,
        lines: [{ line: 1, text: JSON.stringify(customer(1)) }],
      });
      const queued = await submit(t, brand, 'customers.sync', ndjson([customer(2)]));

      expect(await sweepAbandonedBulkUploads(deps)).toBe(0);
      t.clock.advance(25 * 60 * 60 * 1000);
      const recent = await startBulkUpload(deps, { brandId: brand.brandId, userId: null, type: 'customers.sync' });
      expect(await sweepAbandonedBulkUploads(deps)).toBe(1);

      const lines = await t.storage.uow.read((r) => r.bulkOperations.pendingLines(brand.brandId, abandoned.id, 0, 10));
      expect(lines).toEqual([]);
      expect(await t.storage.uow.run((tx) => tx.bulkOperations.queue(brand.brandId, abandoned.id, 1))).toBe(false);
      expect(await t.storage.uow.run((tx) => tx.bulkOperations.queue(brand.brandId, recent.id, 0))).toBe(true);
      const list = await request(t.server).get('/v10/bulk-operations').set(brand.headers);
      expect(list.body.bulk_operations.map((o: { id: number }) => o.id).sort()).toEqual(
        [queued.body.bulk_operation.id, recent.id].sort(),
      );
    });
  });
}
