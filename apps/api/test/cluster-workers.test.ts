/**
 * @slow: starts the API as a primary with two worker processes; started first (tooling/config/jest-sequencer.js).
 * Runs the built server, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { request } from 'node:http';
import { revokeAccessToken, systemClock } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { createIntegrator } from './support/integrator';
import { listOrders, seedOrderingBrand, stockOf } from './support/orders';
import { ServerProcess, startServerProcess, stopServerProcess } from './support/server-process';
import { useTestApp } from './support/test-app';

// The workers run on the real clock: tokens issued on the test app's fixed clock (March 2026)
// would expire there a year later.
const REAL_CLOCK = systemClock;

/**
 * `WEB_CONCURRENCY=2` on one Postgres: what one process guarantees must hold across two.
 *
 * Which worker answered a request is read from the process logs, not from the response: every
 * request carries an `X-Request-Id` of the test's own, and each worker's pino line for it names
 * the worker's pid. Requests go out on connections of their own (no keep-alive), because the
 * primary hands out connections, not requests: one after the other, to the next worker in turn.
 */
const WORKERS = 2;
/** One window for the whole file: no counter starts again while the test runs. */
const RATE_LIMIT = { max: 60, windowMs: 3_600_000 };

interface Answer {
  requestId: string;
  status: number;
  retryAfter: string | undefined;
  body: { errors?: { code: string; detail: string }[] } & Record<string, unknown>;
}

interface LogRecord {
  pid: number;
  msg?: string;
  /** The primary's pids of its workers. */
  workers?: number[];
  /** The port a listener bound ("metrics listening"). */
  port?: number;
  req?: { id?: string };
  res?: { statusCode: number };
}

/** The JSON lines the primary and its workers printed (workers share the primary's stdout). */
function logRecords(server: ServerProcess): LogRecord[] {
  return server
    .output()
    .split('\n')
    .flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as LogRecord];
      } catch {
        return []; // the last line may still be arriving
      }
    });
}

/** Waits until the logs show what `found` looks for; the deadline only catches a cluster that never gets there. */
async function untilLogged<T>(server: ServerProcess, found: (records: LogRecord[]) => T | undefined): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const result = found(logRecords(server));
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`not logged in time; the cluster printed:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Postgres where the run has it; SQLite has one writer, so the API refuses workers on it.
if (testDialects().includes('postgres')) {
  describe('several API workers on one Postgres [postgres]', () => {
    jest.setTimeout(180_000);
    // A fresh database, and the app in this process over it, for arranging data through the API: a
    // third process of the same deployment, so it counts requests against the same rate limit.
    const t = useTestApp('postgres', { rateLimit: RATE_LIMIT });

    // Nested, so that the cluster stops before the outer afterAll drops the database.
    describe(`WEB_CONCURRENCY=${WORKERS}`, () => {
      let cluster: ServerProcess;
      let workerPids: number[];
      let sent = 0;
      let metricsPort: number;

      beforeAll(async () => {
        cluster = await startServerProcess(t.storage.url, {
          WEB_CONCURRENCY: String(WORKERS),
          // The system's pick, read back from the log: a port picked here could be taken before
          // the primary binds it.
          METRICS_PORT: '0',
          RATE_LIMIT_MAX: String(RATE_LIMIT.max),
          RATE_LIMIT_WINDOW_MS: String(RATE_LIMIT.windowMs),
          // The request log waits in each worker's memory for up to a minute: shutdown must write what is left.
          REQUEST_LOG_FLUSH_MS: '60000',
        });
        workerPids = await untilLogged(
          cluster,
          (records) => records.find((r) => r.msg === 'all workers listening')?.workers,
        );
        metricsPort = await untilLogged(cluster, (records) => records.find((r) => r.msg === 'metrics listening')?.port);
      });

      afterAll(async () => {
        if (cluster) await stopServerProcess(cluster);
      });

      /** One request on a connection of its own, with a request id that finds its log line. */
      function send(path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
        const requestId = `cluster-test-${(sent += 1)}`;
        const payload = body === undefined ? undefined : JSON.stringify(body);
        return new Promise((resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.1',
              port: cluster.port,
              method: payload === undefined ? 'GET' : 'POST',
              path,
              agent: false,
              headers: {
                ...headers,
                'x-request-id': requestId,
                ...(payload === undefined
                  ? {}
                  : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
              },
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () =>
                resolve({
                  requestId,
                  status: res.statusCode ?? 0,
                  retryAfter: res.headers['retry-after'],
                  body: text === '' ? {} : (JSON.parse(text) as Answer['body']),
                }),
              );
            },
          );
          req.on('error', reject);
          req.end(payload);
        });
      }

      /** `count` requests made by `make`, at most `parallel` at a time. */
      async function sendMany(count: number, parallel: number, make: (index: number) => Promise<Answer>) {
        const answers: Answer[] = [];
        for (let start = 0; start < count; start += parallel) {
          const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, i) => make(start + i));
          answers.push(...(await Promise.all(batch)));
        }
        return answers;
      }

      /** The pids of the workers that answered `answers`, read from their log lines. */
      function workersThatAnswered(answers: Answer[]): Promise<Set<number>> {
        const ids = new Set(answers.map((a) => a.requestId));
        return untilLogged(cluster, (records) => {
          const answered = records.filter((r) => r.res && r.req?.id !== undefined && ids.has(r.req.id));
          return answered.length === ids.size ? new Set(answered.map((r) => r.pid)) : undefined;
        });
      }

      it('migrates and seeds once in the primary, and hands requests to both workers', async () => {
        expect(new Set(workerPids).size).toBe(WORKERS);
        expect(workerPids).not.toContain(cluster.child.pid);
        // Two workers seeding an empty database would have made two demo brands and printed two curl lines.
        expect(cluster.output().match(/curl -H/g)).toHaveLength(1);

        const { accessToken, appKey } = cluster.demo!;
        const headers = { authorization: `Bearer ${accessToken}`, 'x-service-app-key': appKey };
        const answers = await sendMany(8, 1, () => send('/v10/customers?limit=1', headers));
        expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
        expect(await workersThatAnswered(answers)).toEqual(new Set(workerPids));
      });

      it('answers one scrape for the machine: the requests both workers served add up in it', async () => {
        const live = await sendMany(10, 1, () => send('/health/live', {}));
        expect(live.map((a) => a.status)).toEqual(Array(10).fill(200));
        expect(await workersThatAnswered(live)).toEqual(new Set(workerPids));

        const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
        expect(scrape.status).toBe(200);
        expect(scrape.headers.get('content-type')).toContain('text/plain');
        const text = await scrape.text();
        expect(text).toMatch(/^http_requests_total\{method="GET",route="\/health\/live",status="200"\} 10$/m);
        expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/health\/live"\} 10$/m);
        expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
        // The API's own port has no metrics: they stay on the listener an operator keeps inside.
        expect((await send('/metrics', {})).status).toBe(404);
      });

      it('shares one rate limit between the workers: at most RATE_LIMIT_MAX answers per token and window', async () => {
        const integrator = await createIntegrator(t.storage, REAL_CLOCK);
        const answers = await sendMany(2.5 * RATE_LIMIT.max, 10, () =>
          send('/v10/customers?limit=1', integrator.headers),
        );

        // The bound asserted: no overshoot. The workers count against one database counter per token
        // and admit a request only once it is counted there, so together they admit at most the limit.
        const OVERSHOOT_BOUND = 0;
        const passed = answers.filter((a) => a.status === 200);
        const limited = answers.filter((a) => a.status === 429);
        expect(passed.length).toBeLessThanOrEqual(RATE_LIMIT.max + OVERSHOOT_BOUND);
        // Nor fewer: no request within the limit was refused.
        expect(passed).toHaveLength(RATE_LIMIT.max);
        expect(limited).toHaveLength(answers.length - RATE_LIMIT.max);
        for (const answer of limited) {
          expect(Number(answer.retryAfter)).toBeGreaterThan(0);
          expect(answer.body.errors?.[0]?.code).toBe('too_many_requests');
        }
        // Both workers let requests through and both refused some: they counted against one limit.
        expect(await workersThatAnswered(passed)).toEqual(new Set(workerPids));
        expect(await workersThatAnswered(limited)).toEqual(new Set(workerPids));
      });

      it('refuses a revoked token from the very next request on every worker', async () => {
        const integrator = await createIntegrator(t.storage, REAL_CLOCK);
        const path = '/v10/customers?limit=1';
        // Each worker has verified the token (and may keep it in memory) before it is revoked.
        const before = await sendMany(6, 1, () => send(path, integrator.headers));
        expect(before.map((a) => a.status)).toEqual(Array(6).fill(200));
        expect(await workersThatAnswered(before)).toEqual(new Set(workerPids));

        // Revoked through the core use case on this test's own database connection, as the CLI does.
        await revokeAccessToken(
          { uow: t.storage.uow, clock: REAL_CLOCK, hasher: nodeSecretHasher },
          { tokenId: integrator.tokenId },
        );

        const after = await sendMany(6, 1, () => send(path, integrator.headers));
        expect(after.map((a) => a.status)).toEqual(Array(6).fill(401));
        expect(await workersThatAnswered(after)).toEqual(new Set(workerPids));
      });

      it('sells exactly the stock when 40 orders race for 10 pieces on both workers', async () => {
        const shop = await seedOrderingBrand(t, { stock: { 'TEE-S': 10 } });
        const path = `/v10/order-channels/${shop.channels.b2b}/orders`;
        const answers = await sendMany(40, 40, (index) =>
          send(path, shop.brand.headers, {
            order: { customer_number: 'C-B2B', reference: `race-${index}`, lines: [{ sku: 'TEE-S', quantity: 1 }] },
          }),
        );

        expect(await workersThatAnswered(answers)).toEqual(new Set(workerPids));
        expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
        for (const refused of answers.filter((a) => a.status !== 201)) {
          expect({ status: refused.status, errors: refused.body.errors }).toEqual({
            status: 422,
            errors: [
              expect.objectContaining({
                code: 'validation_failed',
                detail: 'order.lines[0].quantity SKU TEE-S is short: 1 ordered, 0 available',
              }),
            ],
          });
        }
        expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 0 });
        expect((await listOrders(t, shop.brand)).total).toBe(10);
      });

      it('creates exactly one order when 20 identical requests with one Idempotency-Key race on both workers', async () => {
        const shop = await seedOrderingBrand(t, { stock: { 'TEE-S': 10 } });
        const path = `/v10/order-channels/${shop.channels.b2b}/orders`;
        const body = {
          order: { customer_number: 'C-B2B', reference: 'PO-ONCE', lines: [{ sku: 'TEE-S', quantity: 1 }] },
        };
        const answers = await sendMany(20, 20, () =>
          send(path, { ...shop.brand.headers, 'Idempotency-Key': 'erp-order-PO-ONCE' }, body),
        );

        expect(await workersThatAnswered(answers)).toEqual(new Set(workerPids));
        const orders = (await listOrders(t, shop.brand)).orders;
        expect(orders).toHaveLength(1);
        for (const answer of answers) {
          if (answer.status === 201) expect((answer.body as { order: { id: number } }).order.id).toBe(orders[0]!['id']);
          else
            expect({ status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({
              status: 409,
              code: 'idempotency_key_in_use',
            });
        }
        expect(await stockOf(t, shop.brand, 'TEE-S')).toEqual({ in_stock: 10, available: 9 });
      });

      it('on SIGTERM to the primary stops every worker gracefully, writing their request logs, and exits 0', async () => {
        const integrator = await createIntegrator(t.storage, REAL_CLOCK);
        const answers = await sendMany(6, 1, () => send('/v10/customers?limit=1', integrator.headers));
        expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
        expect(await workersThatAnswered(answers)).toEqual(new Set(workerPids));

        cluster.child.kill('SIGTERM');
        expect(await cluster.exited).toBe(0);
        for (const pid of workerPids) expect(isRunning(pid)).toBe(false);

        // With a flush interval of a minute the workers may still hold these entries: shutdown writes what is left.
        const logged = await t.storage.uow.read((r) =>
          r.requestLogs.listForUser(integrator.brandId, integrator.userId, 100),
        );
        expect(logged.map((entry) => entry.requestId).sort()).toEqual(answers.map((a) => a.requestId).sort());
      });
    });
  });
}

if (testDialects().includes('sqlite')) {
  describe('several API workers on SQLite [sqlite]', () => {
    it('refuses to start them, naming Postgres as what they need', async () => {
      const refusal = await startServerProcess(':memory:', { WEB_CONCURRENCY: String(WORKERS) }).catch(
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(Error);
      expect((refusal as Error).message).toMatch(
        /server exited with 1:[\s\S]*WEB_CONCURRENCY=2 needs a Postgres DATABASE_URL: SQLite takes one writer at a time/,
      );
    });
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
