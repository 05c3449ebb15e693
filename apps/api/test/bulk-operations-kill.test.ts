/**
 * @slow: starts API server processes and kills one with SIGKILL in the middle of a bulk operation; started first (tooling/config/jest-sequencer.js).
 * Runs the built server, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BulkOperation, getBulkOperation, listEvents, systemClock } from '@brand/core';
import { Storage, openStorage } from '@brand/persistence-kysely';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { Integrator, createIntegrator } from './support/integrator';
import { ServerProcess, startServerProcess, stopServerProcess } from './support/server-process';

/**
 * Issue 35, resumption (DESIGN §16): a process killed with SIGKILL in the middle of a bulk
 * operation leaves it to another process, which goes on from the last committed chunk; no line
 * is applied twice, none is lost. The killed brand's rows, events and report are compared with a
 * clean run of the same file in another brand. Stock is changed by adjustments, and some
 * products come again later in the file with a further adjustment, so a chunk applied twice (or
 * a line skipped) shows in the stock and the events, not only in the counts.
 */

type Body = Record<string, unknown>;
type ResultLine = { line: number; status: 'ok' | 'failed'; id?: number | null; errors?: Body[] };

/** Long enough that the kill, after `KILL_AFTER_LINES`, leaves most chunks for the second process to resume. */
const PRODUCTS = 1500;
/** The process is killed once this many lines have committed. */
const KILL_AFTER_LINES = 300;
/** Every this many lines, a line that comes back to a product of an earlier chunk with one more piece of stock. */
const COME_BACK_EVERY = 40;
/** How far back (in lines) it goes: further than a chunk, so the two never share one. */
const COME_BACK_LINES = 150;

/** One product with two variants: stock by adjustment on one, by an absolute count on the other. */
const product = (n: number) => ({
  item_number: `P-${n}`,
  name: `Product ${n}`,
  variants: [
    { sku: `P-${n}-S`, attributes: { size: 'S' }, inventory: [{ adjustment: (n % 7) + 1 }] },
    { sku: `P-${n}-M`, attributes: { size: 'M' }, inventory: [{ quantity: 10 + (n % 5) }] },
  ],
});

/**
 * The file: products in order; every `COME_BACK_EVERY`th line instead adds one piece to the small
 * variant of the product `COME_BACK_LINES` lines earlier; a line now and then that the sync
 * refuses, and one that is not JSON.
 */
function file(): string {
  const lines: string[] = [];
  for (let n = 1; n <= PRODUCTS; n++) {
    if (n % COME_BACK_EVERY === 0 && n > COME_BACK_LINES) {
      const earlier = n - COME_BACK_LINES;
      lines.push(
        JSON.stringify({
          ...product(earlier),
          variants: [{ sku: `P-${earlier}-S`, attributes: { size: 'S' }, inventory: [{ adjustment: 1 }] }],
        }),
      );
    } else if (n % 497 === 0) lines.push(JSON.stringify({ item_number: `P-${n}`, name: 7 }));
    else if (n === 751) lines.push('{"item_number": "P-751", "name": ');
    else lines.push(JSON.stringify(product(n)));
  }
  return `${lines.join('\n')}\n`;
}

async function call(baseUrl: string, who: Integrator, method: string, path: string): Promise<Body> {
  const response = await fetch(`${baseUrl}${path}`, { method, headers: who.headers });
  const body = (await response.json()) as Body;
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

async function submit(baseUrl: string, who: Integrator, body: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v10/bulk-operations?type=products.sync`, {
    method: 'POST',
    headers: { ...who.headers, 'Content-Type': 'application/x-ndjson' },
    body,
  });
  const answer = (await response.json()) as { bulk_operation: { id: number } };
  if (response.status !== 202) throw new Error(`submit answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer.bulk_operation.id;
}

/** Every page of a cursor list, through the API. */
async function all(baseUrl: string, who: Integrator, path: string, key: string): Promise<Body[]> {
  const rows: Body[] = [];
  for (let after = ''; ; ) {
    const page = await call(baseUrl, who, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=100${after}`);
    const items = page[key] as Body[];
    rows.push(...items);
    if (page['has_more'] !== true) return rows;
    after = `&starting_after=${String(items[items.length - 1]!['id'])}`;
  }
}

async function resultsOf(baseUrl: string, who: Integrator, id: number): Promise<ResultLine[]> {
  const response = await fetch(`${baseUrl}/v10/bulk-operations/${id}/results`, { headers: who.headers });
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ResultLine);
}

/**
 * What a brand holds after the file, without its ids (the brands draw different ones): each
 * product's variants and their stock, the count of events by type, the report with each line's
 * id turned into the item number it stands for.
 */
async function outcome(baseUrl: string, who: Integrator, operationId: number) {
  const products = await all(baseUrl, who, '/v10/products?includes[]=variants.inventory', 'products');
  const itemNumberById = new Map(products.map((p) => [p['id'] as number, p['item_number'] as string]));
  const catalog = Object.fromEntries(
    products.map((p) => [
      p['item_number'],
      {
        name: p['name'],
        variants: (p['variants'] as Body[])
          .map((v) => ({
            sku: v['sku'],
            attributes: v['attributes'],
            in_stock: (v['inventory'] as { in_stock: number }[]).map((balance) => balance.in_stock),
          }))
          .sort((a, b) => String(a.sku).localeCompare(String(b.sku))),
      },
    ]),
  );
  const eventsByType: Record<string, number> = {};
  for (const event of await all(baseUrl, who, '/v10/events', 'events'))
    eventsByType[event['type'] as string] = (eventsByType[event['type'] as string] ?? 0) + 1;
  const report = (await resultsOf(baseUrl, who, operationId)).map((r) =>
    r.status === 'ok'
      ? { line: r.line, status: r.status, item_number: itemNumberById.get(r.id as number) ?? `missing id ${r.id}` }
      : { line: r.line, status: r.status, codes: r.errors?.map((e) => e['code']) },
  );
  const operation = (await call(baseUrl, who, 'GET', `/v10/bulk-operations/${operationId}`))['bulk_operation'] as Body;
  return { catalog, eventsByType, report, operation };
}

/** How many events of `type` the brand's feed holds, read from storage (no process is up to ask). */
async function eventCount(storage: Storage, brandId: number, type: string): Promise<number> {
  let count = 0;
  for (let after = 0; ; ) {
    const { page } = await listEvents(
      { uow: storage.uow },
      { brandId, query: { limit: '100', ...(after > 0 ? { starting_after: String(after) } : {}) } },
    );
    count += page.items.filter((event) => event.type === type).length;
    if (!page.hasMore) return count;
    after = page.items[page.items.length - 1]!.id;
  }
}

/** How many lines of the operation have a result, read from storage. */
async function resultCount(storage: Storage, brandId: number, operationId: number): Promise<number> {
  const results = await storage.uow.read((repos) =>
    repos.bulkOperations.results(brandId, operationId, 0, PRODUCTS + 1),
  );
  return results.length;
}

async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  servers: ServerProcess[],
  deadlineMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(
        `${what} did not happen in time; the servers printed:\n${servers.map((s) => s.output()).join('\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// A short lease, so the second process takes the killed one's operation over soon.
const SERVER_ENV = { BULK_LEASE_MS: '1500', LOG_LEVEL: 'info' };

for (const dialect of testDialects()) {
  describe(`bulk operations across a killed process [${dialect}]`, () => {
    // Room for two server starts (each may take up to 90 s on a busy machine) and two runs of the file.
    jest.setTimeout(600_000);
    const servers: ServerProcess[] = [];
    // Postgres: a fresh database; SQLite: a file, since the server processes open it too.
    let storage: Storage;
    let url: string;

    beforeEach(async () => {
      if (dialect === 'postgres') {
        const database = await openTestStorage('postgres');
        storage = database;
        url = database.url;
      } else {
        url = join(mkdtempSync(join(tmpdir(), 'brand-bulk-kill-')), 'brand.sqlite');
        storage = await openStorage(url);
        await storage.migrate();
      }
    });
    afterEach(async () => {
      for (const server of servers.splice(0)) await stopServerProcess(server);
      await storage.close();
    });

    const read = (who: Integrator, id: number): Promise<BulkOperation> =>
      getBulkOperation({ uow: storage.uow }, { brandId: who.brandId, id });

    it('resumes an operation whose process was killed mid-operation: the same rows, events and report as a clean run', async () => {
      const body = file();
      const killed = await createIntegrator(storage, systemClock);
      const clean = await createIntegrator(storage, systemClock);

      const first = await startServerProcess(url, SERVER_ENV);
      servers.push(first);
      const killedId = await submit(first.baseUrl, killed, body);
      // A few chunks in, and far from the end.
      await until(
        async () => (await read(killed, killedId)).processedLines >= KILL_AFTER_LINES,
        'the first chunks of the operation',
        servers,
      );
      first.child.kill('SIGKILL');
      await first.exited;

      // What the killed process committed: whole chunks, and exactly their lines' rows. A chunk
      // under way when it died (it nearly always is: the runner is inside one all the time) was
      // rolled back whole.
      const atKill = await read(killed, killedId);
      expect(atKill.status).toBe('running');
      expect(atKill.processedLines).toBeGreaterThan(0);
      expect(atKill.processedLines).toBeLessThan(PRODUCTS);
      expect(atKill.processedLines % 100).toBe(0);
      const committedLines = body.split('\n').slice(0, atKill.processedLines);
      const createdInThem = committedLines.filter((line) => line.includes(`"sku":"P-`) && line.includes(`-M"`)).length;
      expect(await eventCount(storage, killed.brandId, 'product.created')).toBe(createdInThem);
      expect(await resultCount(storage, killed.brandId, killedId)).toBe(atKill.processedLines);

      const second = await startServerProcess(url, SERVER_ENV);
      servers.push(second);
      const cleanId = await submit(second.baseUrl, clean, body);
      await until(
        async () =>
          (await read(killed, killedId)).status === 'succeeded' && (await read(clean, cleanId)).status === 'succeeded',
        'both operations to succeed',
        servers,
      );

      const resumed = await outcome(second.baseUrl, killed, killedId);
      const reference = await outcome(second.baseUrl, clean, cleanId);
      expect(resumed.operation).toMatchObject({
        status: 'succeeded',
        total_lines: PRODUCTS,
        processed_lines: PRODUCTS,
        failed_lines: reference.operation['failed_lines'],
      });
      expect(reference.operation['failed_lines']).toBeGreaterThan(0);
      // Every line's result once, in order.
      expect(resumed.report.map((r) => r.line)).toEqual(Array.from({ length: PRODUCTS }, (_, i) => i + 1));
      expect(resumed.report).toEqual(reference.report);
      expect(resumed.eventsByType).toEqual(reference.eventsByType);
      expect(Object.keys(resumed.catalog)).toHaveLength(Object.keys(reference.catalog).length);
      expect(resumed.catalog).toEqual(reference.catalog);
    });
  });
}
