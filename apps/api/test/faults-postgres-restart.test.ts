/**
 * @slow: among the longest files of the suite; started first (tooling/config/jest-sequencer.js).
 * Runs the built server, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FixedClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { testDialects } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { OrderingBrand, postOrder, seedOrderingBrand } from './support/orders';
import { PrivatePostgres } from './support/private-postgres';
import { ServerProcess, startServerProcess, stopServerProcess } from './support/server-process';
import { TestContext, buildApp, closeServer, listenOnLoopback } from './support/test-app';

/**
 * A Postgres restart under load, with two API processes, as an operator's `pg_ctl restart`
 * would do it. This needs a server of the test's own (the shared one must not be restarted), so
 * it runs where the suite runs Postgres at all.
 */
const PIECES_PER_ORDER = 12;
const INITIAL_STOCK = 1_000_000;
const CLIENTS_PER_SERVER = 3;
/**
 * A refused client waits this long before its next request, as a real one would (the whole
 * Retry-After would stretch the test to minutes). Refusals come back at once while Postgres is
 * down: without the pause, the six clients sent some 2,000 requests in the four seconds of the
 * outage, a quarter of the file's CPU, and felt the outage no better than the 360 they send now.
 */
const PAUSE_AFTER_REFUSAL_MS = 50;

/** How often the readiness probes ask, and the bound on a refusal: 2 s, plus slack for a loaded machine. */
const PROBE_INTERVAL_MS = 100;
const READY_BOUND_MS = 2_500;

/** One readiness probe's answer. */
interface Probe {
  server: number;
  status: number;
  sentAt: number;
  at: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  kind: 'order' | 'read';
  server: number;
  reference: string;
  status: number;
  retryAfter: string | null;
  code: string | null;
  at: number;
}

async function contextOn(url: string, options: { lockTimeoutMs?: number } = {}): Promise<TestContext> {
  const storage = Object.assign(await openStorage(url, options), { url });
  await storage.migrate();
  // Now, not a fixed date: the server processes run on the real clock, and a token issued on a
  // fixed date in the past would expire there a year after it.
  const clock = new FixedClock(new Date().toISOString());
  const app = buildApp(storage, clock);
  const server = await listenOnLoopback(app);
  return { storage, clock, app, server, flushRequestLog: () => requestLogOf(app).flush() };
}

/** Every order of the brand, walked page by page. */
async function storedOrders(t: TestContext, shop: OrderingBrand): Promise<{ reference: string }[]> {
  const orders: { reference: string }[] = [];
  let cursor: string | null = null;
  do {
    const response: request.Response = await request(t.server)
      .get(`/v10/orders?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      .set(shop.brand.headers);
    expect(response.status).toBe(200);
    orders.push(...(response.body.orders as { reference: string }[]));
    cursor = response.body.has_more ? (response.body.next_cursor as string) : null;
  } while (cursor);
  return orders;
}

// Postgres where the run has it; on SQLite, whose database is a file the API holds itself, the
// outage it meets is another process holding the write lock.
if (testDialects().includes('postgres')) {
  describe('a Postgres restart under load [postgres]', () => {
    jest.setTimeout(180_000);
    let postgres: PrivatePostgres;
    let seeding: TestContext;
    let shop: OrderingBrand;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      postgres = await PrivatePostgres.create();
      seeding = await contextOn(postgres.url);
      shop = await seedOrderingBrand(seeding, { stock: { 'SOCK-42': INITIAL_STOCK } });
      await seeding.flushRequestLog();
      await closeServer(seeding.server);
      await seeding.storage.close();
      const env = { RATE_LIMIT_MAX: '1000000', REQUEST_LOG_FLUSH_MS: '50' };
      servers.push(
        ...(await Promise.all([startServerProcess(postgres.url, env), startServerProcess(postgres.url, env)])),
      );
    });

    afterAll(async () => {
      await Promise.all(servers.map((server) => stopServerProcess(server)));
      await postgres?.destroy();
    });

    it('keeps both API processes serving, answers 503 with Retry-After meanwhile (readiness too, within 2 s), and loses or invents no order', async () => {
      const answers: Answer[] = [];
      let sent = 0;
      let loadRuns = true;

      const call = async (kind: Answer['kind'], server: number): Promise<void> => {
        const reference = `restart-${(sent += 1)}`;
        const { baseUrl } = servers[server]!;
        const headers = { ...shop.brand.headers, 'Content-Type': 'application/json' };
        const response =
          kind === 'order'
            ? await fetch(`${baseUrl}/v10/order-channels/${shop.channels.b2b}/orders`, {
                method: 'POST',
                headers,
                body: JSON.stringify({
                  order: {
                    customer_number: 'C-B2B',
                    reference,
                    lines: [{ sku: 'SOCK-42', quantity: PIECES_PER_ORDER }],
                  },
                }),
                signal: AbortSignal.timeout(20_000),
              })
            : await fetch(`${baseUrl}/v10/customers?limit=5`, { headers, signal: AbortSignal.timeout(20_000) });
        const body = (await response.json()) as { errors?: { code: string }[] };
        answers.push({
          kind,
          server,
          reference,
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          code: body.errors?.[0]?.code ?? null,
          at: Date.now(),
        });
        if (response.status >= 300) await pause(PAUSE_AFTER_REFUSAL_MS);
      };

      const client = async (server: number): Promise<void> => {
        while (loadRuns) {
          await call('order', server);
          await call('read', server);
        }
      };
      const clients = servers.flatMap((_server, index) =>
        Array.from({ length: CLIENTS_PER_SERVER }, () => client(index)),
      );
      // A load balancer's readiness probe on each process, as often as a strict one would ask.
      const probes: Probe[] = [];
      const prober = async (server: number): Promise<void> => {
        while (loadRuns) {
          const sentAt = Date.now();
          const response = await fetch(`${servers[server]!.baseUrl}/health/ready`, {
            signal: AbortSignal.timeout(20_000),
          });
          await response.arrayBuffer();
          probes.push({ server, status: response.status, sentAt, at: Date.now() });
          await pause(PROBE_INTERVAL_MS);
        }
      };
      const probers = servers.map((_server, index) => prober(index));

      await pause(1_000);
      const stoppingAt = Date.now();
      await postgres.stop('fast');
      const downAt = Date.now();
      await pause(3_000);
      const restartingAt = Date.now();
      await postgres.start();
      const startedAt = Date.now();

      // Load goes on until each process has served orders again for a while, or a deadline that
      // only a process that never recovers reaches (a busy machine serves slowly, not never).
      const servedSince = (server: number, since: number) =>
        answers.filter((a) => a.server === server && a.kind === 'order' && a.status === 201 && a.at > since).length;
      while (Date.now() - startedAt < 90_000 && !servers.every((_s, index) => servedSince(index, startedAt) >= 20))
        await pause(100);
      loadRuns = false;
      await Promise.all([...clients, ...probers]);

      // Readiness followed the database on both processes: ready before, 503 within 2 s of the
      // loss (the machine's load given half a second more), every probe of the outage refused
      // within that bound, and ready again once Postgres was back.
      for (const [index] of servers.entries()) {
        const own = probes.filter((p) => p.server === index);
        expect(own.filter((p) => p.at < stoppingAt).every((p) => p.status === 200)).toBe(true);
        const firstRefusal = own.find((p) => p.sentAt >= stoppingAt && p.status === 503);
        expect(firstRefusal).toBeDefined();
        expect(firstRefusal!.at - downAt).toBeLessThanOrEqual(READY_BOUND_MS);
        const duringOutage = own.filter((p) => p.sentAt >= downAt && p.at < restartingAt);
        expect(duringOutage.length).toBeGreaterThan(0);
        for (const probe of duringOutage) {
          expect(probe.status).toBe(503);
          expect(probe.at - probe.sentAt).toBeLessThanOrEqual(READY_BOUND_MS);
        }
        expect(own.some((p) => p.sentAt > startedAt && p.status === 200)).toBe(true);
      }

      // Both processes are alive and serve again.
      for (const [index, server] of servers.entries()) {
        expect({ server: index, exitCode: server.child.exitCode, signal: server.child.signalCode }).toEqual({
          server: index,
          exitCode: null,
          signal: null,
        });
        expect(servedSince(index, startedAt)).toBeGreaterThanOrEqual(20);
        expect(server.output()).not.toMatch(/Unhandled 'error' event|already executing a query/);
      }

      // The outage was felt, and only as 503 storage_unavailable with Retry-After: never a 500.
      const failures = answers.filter((a) => a.status >= 300);
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((a) => a.at < stoppingAt)).toEqual([]);
      for (const failure of failures) {
        expect({ status: failure.status, code: failure.code, retryAfter: failure.retryAfter }).toEqual({
          status: 503,
          code: 'storage_unavailable',
          retryAfter: '5',
        });
      }

      // Every acknowledged order exists once; no refused one does; stock moved for exactly those.
      const check = await contextOn(postgres.url);
      try {
        const stored = await storedOrders(check, shop);
        const storedReferences = stored.map((o) => o.reference).sort();
        const acknowledged = answers
          .filter((a) => a.kind === 'order' && a.status === 201)
          .map((a) => a.reference)
          .sort();
        expect(storedReferences).toEqual(acknowledged);
        const inventory = await request(check.app)
          .get(
            `/v10/inventory-available?filter_groups[0][filters][0][key]=sku&filter_groups[0][filters][0][value]=SOCK-42`,
          )
          .set(shop.brand.headers);
        expect(inventory.body.inventory[0]).toMatchObject({
          in_stock: INITIAL_STOCK,
          available: INITIAL_STOCK - PIECES_PER_ORDER * acknowledged.length,
        });
      } finally {
        await closeServer(check.server);
        await check.storage.close();
      }
    });
  });
}

if (testDialects().includes('sqlite')) {
  describe('a SQLite database locked by another process [sqlite]', () => {
    it('answers 503 with Retry-After while the lock is held, writes nothing then, and takes orders again once it is gone', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'brand-locked-'));
      const file = join(folder, 'brand.sqlite');
      const t = await contextOn(file, { lockTimeoutMs: 200 });
      const holder = new BetterSqlite3(file);
      try {
        const shop = await seedOrderingBrand(t, { stock: { 'SOCK-42': INITIAL_STOCK } });
        await t.flushRequestLog();
        const order = (reference: string) => ({
          customer_number: 'C-B2B',
          reference,
          lines: [{ sku: 'SOCK-42', quantity: PIECES_PER_ORDER }],
        });

        holder.exec('begin immediate');
        const refused = await postOrder(t, shop.brand, shop.channels.b2b, order('while-locked'));
        expect({
          status: refused.status,
          code: refused.body.errors?.[0]?.code,
          retryAfter: refused.headers['retry-after'],
        }).toEqual({ status: 503, code: 'storage_unavailable', retryAfter: '5' });
        holder.exec('rollback');

        const accepted = await postOrder(t, shop.brand, shop.channels.b2b, order('after-unlock'));
        expect(accepted.status).toBe(201);
        expect((await storedOrders(t, shop)).map((o) => o.reference)).toEqual(['after-unlock']);
      } finally {
        holder.close();
        await closeServer(t.server);
        await t.storage.close();
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
}
