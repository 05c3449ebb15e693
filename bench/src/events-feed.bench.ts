/**
 * Issue 31 benchmark: the events feed under concurrent writers, on Postgres, as an integration
 * polls it. The real server with two workers (WEB_CONCURRENCY=2) on a throwaway Postgres, a shop
 * of 1,000 variants; for BENCH_SECONDS (default 30): orders of 3 lines from 16 connections
 * (autocannon), beside 8 loops of customer PATCHes and 8 of product syncs (one product, a name
 * change and a stock adjustment), while a poller follows `GET /v10/events` every 50 ms with
 * `starting_after` = the number of the last event it saw (the bare number, which every release
 * understands). Then the whole feed is walked and compared with what the poller saw: events it
 * never saw (skipped) and events it saw twice. Prints
 * the order creations per second and p99 beside them. BENCH_RUNS (default 1) repeats on fresh
 * databases.
 *
 * Without TEST_POSTGRES_URL it runs itself again inside tooling/scripts/with-postgres.sh.
 */
import { openTestStorage } from '@brand/persistence-kysely/testing';
import {
  Shop,
  measure,
  postJson,
  randomOrder,
  saveResults,
  seedIntegrator,
  seedShop,
  startApiProcesses,
  runOnPostgres,
  stopApiProcesses,
} from './harness';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const ORDER_CONNECTIONS = 16;
/** Loops of writes beside the orders: half customer PATCHes, half product syncs. */
const LOOPS = 16;
const SHOP: Shop = { variants: 1000, customers: 100, stockPerVariant: 1_000_000 };

type Headers = Record<string, string>;

async function getJson(url: string, headers: Headers): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function patchJson(url: string, headers: Headers, body: unknown): Promise<void> {
  const response = await fetch(url, { method: 'PATCH', headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`PATCH ${url} answered ${response.status}: ${await response.text()}`);
}

const numberOf = (eventId: string): number => Number(eventId.slice(eventId.indexOf('_') + 1));

/** Every event after `after` (an event number), page by page, in feed order. */
async function eventsAfter(baseUrl: string, headers: Headers, after: number): Promise<number[]> {
  const ids: number[] = [];
  for (let last = after; ; ) {
    const page = await getJson(`${baseUrl}/v10/events?limit=100${last > 0 ? `&starting_after=${last}` : ''}`, headers);
    const events = page['events'] as { id: string }[];
    ids.push(...events.map((e) => numberOf(e.id)));
    if (events.length > 0) last = ids[ids.length - 1]!;
    if (page['has_more'] !== true) return ids;
  }
}

interface Run {
  ordersPerSecond: number;
  ordersP99Ms: number;
  otherWrites: number;
  events: number;
  skipped: number;
  seenTwice: number;
}

async function oneRun(): Promise<Run> {
  const database = await openTestStorage('postgres');
  const api = await startApiProcesses(database.url, 2);
  try {
    const { headers } = await seedIntegrator(database.url);
    const channel = await seedShop(api.baseUrl, headers, SHOP);
    const customers = (await getJson(`${api.baseUrl}/v10/customers?limit=100`, headers))['customers'] as {
      id: number;
    }[];

    let stop = false;
    // The poller: what it saw, in the order it saw it.
    const seen: number[] = [];
    const polling = (async () => {
      while (!stop) {
        seen.push(...(await eventsAfter(api.baseUrl, headers, seen[seen.length - 1] ?? 0)));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    let otherWrites = 0;
    const loops = Array.from({ length: LOOPS }, async (_, loop) => {
      for (let n = 0; !stop; n++) {
        if (loop % 2 === 0) {
          const customer = customers[(loop * 31 + n) % customers.length]!;
          await patchJson(`${api.baseUrl}/v10/customers/${customer.id}`, headers, { name: `Customer v${loop}-${n}` });
        } else {
          const product = 1 + ((loop * 37 + n) % (SHOP.variants / 5));
          await postJson(`${api.baseUrl}/products/sync`, headers, {
            products: [
              {
                item_number: `P${product}`,
                name: `Product ${product} v${loop}-${n}`,
                variants: [{ sku: `P${product}-S`, inventory: [{ adjustment: 1 }] }],
              },
            ],
          });
        }
        otherWrites++;
      }
    });
    const orders = await measure('orders', `${api.baseUrl}/v10/order-channels/${channel}/orders`, headers, {
      connections: ORDER_CONNECTIONS,
      seconds: SECONDS,
      warmupSeconds: 0,
      requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: randomOrder(SHOP) }) }],
    });
    stop = true;
    await Promise.all([...loops, polling]);
    // autocannon stops without waiting for the answers in flight, whose orders still commit: the
    // poller goes on until a second passes with nothing new.
    for (let quiet = 0; quiet < 20; ) {
      const fresh = await eventsAfter(api.baseUrl, headers, seen[seen.length - 1] ?? 0);
      seen.push(...fresh);
      quiet = fresh.length > 0 ? 0 : quiet + 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (orders.non2xx > 0 || orders.errors > 0)
      throw new Error(`${orders.non2xx} orders were refused and ${orders.errors} failed`);

    const feed = await eventsAfter(api.baseUrl, headers, 0);
    const seenOnce = new Set(seen);
    return {
      ordersPerSecond: orders.requestsPerSecond,
      ordersP99Ms: orders.p99Ms,
      otherWrites,
      events: feed.length,
      skipped: feed.filter((id) => !seenOnce.has(id)).length,
      seenTwice: seen.length - seenOnce.size,
    };
  } finally {
    await stopApiProcesses(api);
    await database.close();
  }
}

async function main(): Promise<void> {
  const runs: Run[] = [];
  process.stdout.write(
    `\nThe events feed under load: 2 workers on Postgres, ${SECONDS} s per run\n` +
      '| run | orders/s | orders p99 ms | PATCHes + syncs | events | skipped | seen twice |\n' +
      '|---|---:|---:|---:|---:|---:|---:|\n',
  );
  for (let run = 1; run <= RUNS; run++) {
    const r = await oneRun();
    runs.push(r);
    process.stdout.write(
      `| ${run} | ${r.ordersPerSecond} | ${r.ordersP99Ms} | ${r.otherWrites} | ${r.events} | ${r.skipped} | ${r.seenTwice} |\n`,
    );
  }
  saveResults('events-feed', { seconds: SECONDS, runs });
}

runOnPostgres(main, __filename);
