/**
 * Issue 37 item 5: a long mixed run. The real server (`npm start`'s processes: one on SQLite, two
 * workers on Postgres by default) takes, for BENCH_MINUTES (default 30), at once:
 *   - readers: lists of customers, products with variants and orders, an order by id, the events feed;
 *   - order creation (3 lines) on a B2B channel;
 *   - product syncs (10 products a call, their stock moved);
 *   - webhook deliveries of every event to a local receiver;
 *   - a `/health` probe every 100 ms on a connection of its own, each followed by one of
 *     `/health/live` (no database): when the first is slow and the second is not, the wait is for
 *     the database (the pool), not for the process's event loop.
 * Every 10 s it samples the RSS of each server process (VmRSS) and prints it. At the end: requests
 * and errors by kind, the RSS series, the slope of the total RSS over the last 10 minutes (least
 * squares, MB/min; target < 0.5) and the probe's p50/p99 (target p99 < 100 ms).
 *
 * BENCH_MINUTES, BENCH_WORKERS (server processes; default 1 on SQLite, 2 on Postgres),
 * BENCH_CONNECTIONS (readers, default 16; orders and syncs take a quarter and an eighth of it),
 * BENCH_DIALECTS=sqlite|postgres (both by default).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  benchDialects,
  freshDatabase,
  RunningApi,
  Shop,
  postJson,
  randomOrder,
  runOnPostgres,
  saveResults,
  seedIntegrator,
  seedShop,
  startApiProcesses,
  stopApiProcesses,
} from './harness';

type Dialect = 'sqlite' | 'postgres';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 30);
const READERS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SHOP: Shop = { variants: 5_000, customers: 1_000, stockPerVariant: 1_000_000 };
const SAMPLE_MS = 10_000;
const PROBE_MS = 100;
/** The window whose RSS slope is the target's. */
const SLOPE_WINDOW_MINUTES = 10;

const workersOf = (dialect: Dialect): number => Number(process.env.BENCH_WORKERS ?? (dialect === 'postgres' ? 2 : 1));

/** The server's processes: the one started, and its cluster workers if it has any. */
function serverPids(api: RunningApi): number[] {
  const primary = api.child.pid!;
  try {
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(primary)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    return [primary, ...children];
  } catch {
    return [primary]; // no children: ps exits 1
  }
}

function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** The least-squares slope of (minute, MB) points, in MB per minute. */
function slope(points: { minute: number; mb: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.minute, 0) / n;
  const my = points.reduce((s, p) => s + p.mb, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.minute - mx) * (p.mb - my), 0);
  const sxx = points.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return sxy / sxx;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** A local webhook receiver answering 204, counting what it received. */
async function startReceiver(): Promise<{ url: string; received(): number; close(): Promise<void> }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Tally {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
}

async function soak(dialect: Dialect) {
  const database = await freshDatabase(dialect, 'soak');
  const receiver = await startReceiver();
  process.env.WEBHOOK_ALLOWED_HOSTS = '127.0.0.1';
  try {
    const { headers } = await seedIntegrator(database.url);
    const api = await startApiProcesses(database.url, workersOf(dialect));
    try {
      const publicId = await seedShop(api.baseUrl, headers, SHOP);
      await postJson(`${api.baseUrl}/v10/webhook-endpoints`, headers, { url: receiver.url, events: ['*'] });
      const first = (await postJson(
        `${api.baseUrl}/v10/order-channels/${publicId}/orders`,
        headers,
        JSON.parse(randomOrder(SHOP)),
      )) as { order: { id: number } };

      const tallies: Record<string, Tally> = {};
      const count = (kind: string, status: number | 'error'): void => {
        const tally = (tallies[kind] ??= { requests: 0, errors: 0, statuses: {} });
        tally.requests += 1;
        if (status === 'error' || status >= 500) tally.errors += 1;
        tally.statuses[String(status)] = (tally.statuses[String(status)] ?? 0) + 1;
      };
      const endAt = Date.now() + MINUTES * 60_000;
      const call = async (kind: string, path: string, init: RequestInit = {}): Promise<void> => {
        try {
          const response = await fetch(`${api.baseUrl}${path}`, { ...init, headers });
          await response.arrayBuffer();
          count(kind, response.status);
        } catch {
          count(kind, 'error');
        }
      };
      const loop = async (work: () => Promise<void>): Promise<void> => {
        while (Date.now() < endAt) await work();
      };

      const reads = [
        '/v10/customers?limit=100',
        '/v10/products?limit=50&includes[]=variants&includes[]=variants.prices&includes[]=variants.inventory',
        '/v10/orders?limit=50',
        `/v10/orders/${first.order.id}`,
        '/v10/events?limit=100',
      ];
      let syncRound = 0;
      const probeTimes: number[] = [];
      const liveProbeTimes: number[] = [];
      const samples: { minute: number; mb: number; perProcess: number[] }[] = [];
      const started = Date.now();
      const sampler = setInterval(() => {
        const perProcess = serverPids(api).map((pid) => +rssMb(pid).toFixed(1));
        const mb = perProcess.reduce((s, v) => s + v, 0);
        const minute = (Date.now() - started) / 60_000;
        samples.push({ minute, mb, perProcess });
        const done = Object.values(tallies).reduce((s, t) => s + t.requests, 0);
        process.stdout.write(
          `[${dialect}] ${minute.toFixed(1)} min: RSS ${perProcess.join(' + ')} MB, ${done} requests, ${receiver.received()} deliveries\n`,
        );
      }, SAMPLE_MS);
      const probeOnce = async (path: string, kind: string, times: number[]): Promise<void> => {
        const at = performance.now();
        try {
          const response = await fetch(`${api.baseUrl}${path}`);
          await response.arrayBuffer();
          times.push(performance.now() - at);
          count(kind, response.status);
        } catch {
          count(kind, 'error');
        }
      };
      const probe = async (): Promise<void> => {
        while (Date.now() < endAt) {
          await probeOnce('/health', 'health', probeTimes);
          await probeOnce('/health/live', 'health-live', liveProbeTimes);
          await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
        }
      };

      await Promise.all([
        ...Array.from({ length: READERS }, (_, i) =>
          loop(() => call('read', reads[(i + Math.floor(Math.random() * reads.length)) % reads.length]!)),
        ),
        ...Array.from({ length: Math.max(1, READERS / 4) }, () =>
          loop(() =>
            call('order', `/v10/order-channels/${publicId}/orders`, { method: 'POST', body: randomOrder(SHOP) }),
          ),
        ),
        ...Array.from({ length: Math.max(1, READERS / 8) }, () =>
          loop(() => {
            const from = (syncRound++ * 10) % (SHOP.variants / 5);
            const products = Array.from({ length: 10 }, (_, i) => ({
              item_number: `P${from + i + 1}`,
              name: `Product ${from + i + 1}`,
              variants: ['XS', 'S', 'M', 'L', 'XL'].map((size) => ({
                sku: `P${from + i + 1}-${size}`,
                inventory: [{ quantity: 1_000_000 + syncRound }],
              })),
            }));
            return call('sync', '/products/sync', { method: 'POST', body: JSON.stringify({ products }) });
          }),
        ),
        probe(),
      ]);
      clearInterval(sampler);

      const last = samples.filter((s) => s.minute >= MINUTES - SLOPE_WINDOW_MINUTES);
      const sortedProbe = [...probeTimes].sort((a, b) => a - b);
      const sortedLive = [...liveProbeTimes].sort((a, b) => a - b);
      return {
        dialect,
        workers: workersOf(dialect),
        minutes: MINUTES,
        tallies,
        deliveries: receiver.received(),
        rss: {
          first: samples[0]?.mb,
          last: samples.at(-1)?.mb,
          slopeLastTenMinutes: +slope(last).toFixed(3),
          samples,
        },
        health: {
          p50: +percentile(sortedProbe, 0.5).toFixed(1),
          p99: +percentile(sortedProbe, 0.99).toFixed(1),
          max: +(sortedProbe.at(-1) ?? Number.NaN).toFixed(1),
        },
        healthLive: {
          p50: +percentile(sortedLive, 0.5).toFixed(1),
          p99: +percentile(sortedLive, 0.99).toFixed(1),
          max: +(sortedLive.at(-1) ?? Number.NaN).toFixed(1),
        },
      };
    } finally {
      await stopApiProcesses(api);
    }
  } finally {
    await receiver.close();
    await database.close();
  }
}

async function main(): Promise<void> {
  const dialects = benchDialects();
  const results = [];
  for (const dialect of dialects) {
    const result = await soak(dialect);
    results.push(result);
    const requests = Object.entries(result.tallies)
      .map(([kind, t]) => `${kind} ${t.requests} (${t.errors} errors; by status ${JSON.stringify(t.statuses)})`)
      .join(', ');
    process.stdout.write(
      `\nSoak on ${dialect}, ${result.workers} process(es), ${MINUTES} min: ${requests}; ${result.deliveries} webhook deliveries\n` +
        `RSS ${result.rss.first?.toFixed(0)} → ${result.rss.last?.toFixed(0)} MB, slope over the last ${SLOPE_WINDOW_MINUTES} min ${result.rss.slopeLastTenMinutes} MB/min (target < 0.5)\n` +
        `/health p50 ${result.health.p50} ms, p99 ${result.health.p99} ms (target < 100), max ${result.health.max} ms\n` +
        `/health/live p50 ${result.healthLive.p50} ms, p99 ${result.healthLive.p99} ms, max ${result.healthLive.max} ms\n`,
    );
  }
  saveResults('soak', { minutes: MINUTES, readers: READERS, shop: SHOP, results });
}

if (process.env.BENCH_DIALECTS === 'sqlite')
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
else runOnPostgres(main, __filename);
