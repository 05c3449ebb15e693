/**
 * @slow: starts API server processes (two on Postgres) and polls the events feed under load; started first (tooling/config/jest-sequencer.js).
 * Runs the built server, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Customer, recordEvents, systemClock } from '@brand/core';
import { Storage, openStorage } from '@brand/persistence-kysely';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { ServerProcess, startServerProcess, stopServerProcess } from './support/server-process';

/**
 * DESIGN §10, "the feed never skips": a poller that follows `GET /v10/events` and resumes from the
 * last event it saw (`starting_after=evt_…`) sees every event of its brand exactly once, in the
 * order of the feed, although transactions commit in another order than they started in. Here
 * against real server processes (two on one Postgres), as an integration polls them. The same
 * processes then show that conditional writes (§14) hold across processes.
 */

type Body = Record<string, unknown>;
type FeedEvent = { id: string; type: string };

const SIZES = ['S', 'M', 'L'];
const PRODUCTS = 20;
const CUSTOMERS = 10;

async function call(
  baseUrl: string,
  who: Integrator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...who.headers, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function ok(baseUrl: string, who: Integrator, method: string, path: string, body?: unknown): Promise<Body> {
  const answer = await call(baseUrl, who, method, path, body);
  if (answer.status >= 300)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * Follows the feed as an integration does: asks for what came after the last event it saw
 * (`starting_after` with that event's id as the feed shows it), page by page, and keeps every
 * event it was shown, in the order it was shown.
 */
class Poller {
  readonly seen: FeedEvent[] = [];
  private last: string | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly who: Integrator,
  ) {}

  /** Reads until the feed has nothing newer; answers how many events it got. */
  async poll(): Promise<number> {
    let got = 0;
    for (;;) {
      const after = this.last ? `&starting_after=${this.last}` : '';
      const page = await ok(this.baseUrl, this.who, 'GET', `/v10/events?limit=100${after}`);
      const events = page['events'] as FeedEvent[];
      for (const event of events) this.seen.push({ id: event.id, type: event.type });
      got += events.length;
      if (events.length > 0) this.last = events[events.length - 1]!.id;
      if (page['has_more'] !== true) return got;
    }
  }

  /**
   * Polls every 10 ms until the answer's `stop` is called (one poll at a time, so `seen` keeps
   * the order the feed showed); `stop` ends the loop after a last poll that starts after it.
   */
  follow(): { stop: () => Promise<void> } {
    let stopping = false;
    const loop = (async () => {
      while (!stopping) {
        await this.poll();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await this.poll();
    })();
    return {
      stop: async () => {
        stopping = true;
        await loop;
      },
    };
  }
}

/** The whole feed from its start, by cursor, as it stands now. */
async function wholeFeed(baseUrl: string, who: Integrator): Promise<FeedEvent[]> {
  const all: FeedEvent[] = [];
  let cursor: string | null = null;
  do {
    const page = await ok(
      baseUrl,
      who,
      'GET',
      `/v10/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    all.push(...(page['events'] as FeedEvent[]).map((e) => ({ id: e.id, type: e.type })));
    cursor = page['next_cursor'] as string | null;
  } while (cursor);
  return all;
}

/** What the poller missed or saw twice, against the whole feed: both empty when it never skipped. */
function compare(seen: FeedEvent[], feed: FeedEvent[]) {
  const seenIds = seen.map((e) => e.id);
  const seenOnce = new Set(seenIds);
  const twice = seenIds.filter((id, i) => seenIds.indexOf(id) !== i);
  const missed = feed.filter((e) => !seenOnce.has(e.id));
  return { missed, twice };
}

for (const dialect of testDialects()) {
  describe(`the events feed under concurrent writers [${dialect}]`, () => {
    // Room for the server starts (each may take up to 90 s on a busy machine) and the load.
    jest.setTimeout(300_000);
    const servers: ServerProcess[] = [];
    let storage: Storage;
    let url: string;
    let brand: Integrator;
    let channel: string;
    let customers: { id: number; number: string }[];

    beforeAll(async () => {
      if (dialect === 'postgres') {
        const database = await openTestStorage('postgres');
        storage = database;
        url = database.url;
      } else {
        url = join(mkdtempSync(join(tmpdir(), 'brand-feed-')), 'brand.sqlite');
        storage = await openStorage(url);
        await storage.migrate();
      }
      brand = await createIntegrator(storage, systemClock);
      // Two processes on Postgres, as a deployment with several workers runs; SQLite takes one.
      const count = dialect === 'postgres' ? 2 : 1;
      servers.push(
        ...(await Promise.all(
          Array.from({ length: count }, () => startServerProcess(url, { RATE_LIMIT_MAX: '1000000' })),
        )),
      );
      const base = servers[0]!.baseUrl;
      await ok(base, brand, 'POST', '/products/sync', {
        products: Array.from({ length: PRODUCTS }, (_, p) => ({
          item_number: `P${p}`,
          name: `Product ${p}`,
          variants: SIZES.map((size) => ({
            sku: `P${p}-${size}`,
            attributes: { size },
            prices: { EUR: { sales_price: 19.99, rec_sales_price: 49.95 } },
            inventory: [{ quantity: 1_000_000 }],
          })),
        })),
      });
      const synced = await ok(base, brand, 'POST', '/customers/sync', {
        customers: Array.from({ length: CUSTOMERS }, (_, c) => ({
          customer_number: `C${c}`,
          name: `Customer ${c}`,
          currency: 'EUR',
        })),
      });
      customers = (synced['customers'] as { id: number; customer_number: string }[]).map((c) => ({
        id: c.id,
        number: c.customer_number,
      }));
      const created = await ok(base, brand, 'POST', '/v10/order-channels', { name: 'ERP', order_type: 'b2b' });
      channel = (created['order_channel'] as Body)['public_id'] as string;
    });
    afterAll(async () => {
      for (const server of servers.splice(0)) await stopServerProcess(server);
      await storage?.close();
    });

    /** One write through one of the servers that announces something: an order, a customer PATCH or a product sync. */
    let writes = 0;
    const write = async () => {
      const n = (writes += 1);
      const base = servers[n % servers.length]!.baseUrl;
      const kind = n % 4;
      if (kind === 0 || kind === 1) {
        const lines = Array.from({ length: 1 + (n % 12) }, (_, i) => ({
          sku: `P${(n + i * 7) % PRODUCTS}-${SIZES[(n + i) % SIZES.length]}`,
          quantity: 1,
        }));
        // Distinct SKUs: an order names each variant once.
        const unique = [...new Map(lines.map((l) => [l.sku, l])).values()];
        await ok(base, brand, 'POST', `/v10/order-channels/${channel}/orders`, {
          order: { customer_number: customers[n % CUSTOMERS]!.number, lines: unique },
        });
      } else if (kind === 2) {
        const customer = customers[n % CUSTOMERS]!;
        await ok(base, brand, 'PATCH', `/v10/customers/${customer.id}`, { name: `Customer ${customer.number} v${n}` });
      } else {
        await ok(base, brand, 'POST', '/products/sync', {
          products: [
            {
              item_number: `P${n % PRODUCTS}`,
              name: `Product ${n % PRODUCTS} v${n}`,
              variants: [{ sku: `P${n % PRODUCTS}-S`, inventory: [{ adjustment: 1 }] }],
            },
          ],
        });
      }
    };

    /** Runs `writers` loops of writes until `stop` says so. */
    const load = async (writers: number, stop: () => boolean) => {
      await Promise.all(
        Array.from({ length: writers }, async () => {
          while (!stop()) await write();
        }),
      );
    };

    if (dialect === 'postgres')
      it('shows an event of a transaction that stayed open past later commits, after them and to a poller that had passed them', async () => {
        const poller = new Poller(servers[1]!.baseUrl, brand);
        await poller.poll();
        const held = customers[0]!;
        const shown = await ok(servers[0]!.baseUrl, brand, 'GET', `/v10/customers/${held.id}`);
        // A transaction that announced a change and is still open, as a slow request's is.
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let recorded!: () => void;
        const hasRecorded = new Promise<void>((resolve) => (recorded = resolve));
        const slow = storage.uow.run(async (tx) => {
          await recordEvents(tx, brand.brandId, systemClock.now(), [
            { type: 'customer.updated', object: shown['customer'] as Customer },
          ]);
          recorded();
          await gate;
        });
        await hasRecorded;

        // Later transactions commit through both servers while it stays open; the poller follows.
        const following = poller.follow();
        for (let i = 0; i < 12; i++) await write();
        await new Promise((resolve) => setTimeout(resolve, 100));
        const beforeRelease = poller.seen.length;
        release();
        await slow;
        await following.stop();

        const feed = await wholeFeed(servers[0]!.baseUrl, brand);
        const { missed, twice } = compare(poller.seen, feed);
        expect({ missed, twice }).toEqual({ missed: [], twice: [] });
        expect(poller.seen).toEqual(feed);
        // The held event came after every event that committed while it was open.
        expect(poller.seen.length).toBeGreaterThan(beforeRelease);
        expect(poller.seen[poller.seen.length - 1]!.type).toBe('customer.updated');
      });

    it('lets a poller see every event once, in feed order, while orders, syncs and PATCHes commit concurrently', async () => {
      const poller = new Poller(servers[servers.length - 1]!.baseUrl, brand);
      await poller.poll();
      const following = poller.follow();
      const until = Date.now() + 4_000;
      await load(dialect === 'postgres' ? 8 : 4, () => Date.now() > until);
      await following.stop();

      const feed = await wholeFeed(servers[0]!.baseUrl, brand);
      const { missed, twice } = compare(poller.seen, feed);
      // Count by type, for the failure message.
      const byType = (events: FeedEvent[]) =>
        events.reduce<Record<string, number>>((counts, e) => ({ ...counts, [e.type]: (counts[e.type] ?? 0) + 1 }), {});
      expect({ events: feed.length, missed: byType(missed), twice }).toEqual({
        events: feed.length,
        missed: {},
        twice: [],
      });
      expect(poller.seen).toEqual(feed);
      expect(feed.length).toBeGreaterThan(50);
      const types = new Set(feed.map((e) => e.type));
      for (const type of ['order.created', 'inventory.changed', 'customer.updated', 'product.updated'])
        expect(types).toContain(type);
    });

    // DESIGN §14 across processes: the check and the write are one step in the database, not in
    // one process's memory. 20 writers with one tag, spread over the processes, all at once.
    it('of 20 PATCHes sent with one If-Match tag through the processes, exactly one succeeds and the others answer 412', async () => {
      const customer = customers[0]!;
      const path = `/v10/customers/${customer.id}`;
      const read = await fetch(`${servers[0]!.baseUrl}${path}`, { headers: brand.headers });
      const tag = read.headers.get('etag')!;
      expect([read.status, tag]).toEqual([200, expect.stringMatching(/^"/)]);

      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const response = await fetch(`${servers[i % servers.length]!.baseUrl}${path}`, {
            method: 'PATCH',
            headers: { ...brand.headers, 'Content-Type': 'application/json', 'If-Match': tag },
            body: JSON.stringify({ name: `Conditional writer ${i}` }),
          });
          return { status: response.status, etag: response.headers.get('etag'), body: (await response.json()) as Body };
        }),
      );

      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(19).fill(412)]);
      const winner = answers.find((a) => a.status === 200)!;
      const shown = await fetch(`${servers[servers.length - 1]!.baseUrl}${path}`, { headers: brand.headers });
      expect(shown.headers.get('etag')).toBe(winner.etag);
      expect(((await shown.json()) as { customer: Body }).customer['name']).toBe(
        (winner.body['customer'] as Body)['name'],
      );
    });
  });
}
