/**
 * Issue 35 benchmark: a catalog of 100,000 products × 5 variants through
 * `POST /v10/bulk-operations?type=products.sync` (the file streamed up, then run by the server's
 * own bulk runner until it succeeded) against the same items through `POST /products/sync` in a
 * tight loop of 100-product calls, each into a fresh database, on SQLite and on Postgres (run
 * inside tooling/scripts/with-postgres.sh unless TEST_POSTGRES_URL is set). Then a file of
 * 1,000,000 customers is submitted: the time until it is accepted (202) and the API's peak RSS.
 * `BENCH_DIALECTS=sqlite` leaves Postgres out; BENCH_PRODUCTS and BENCH_CUSTOMERS scale it down.
 * Targets: bulk throughput ≥ 0.9 of the loop's, peak RSS of the API process < 300 MB throughout.
 * The server is the real one (`dist/server.js`, one process), so the bulk runner is the one a
 * deployment runs.
 */
import { Readable } from 'node:stream';
import {
  benchDialects,
  freshDatabase,
  RunningApi,
  peakRssMb,
  runOnPostgres,
  saveResults,
  seedIntegrator,
  startApiProcesses,
  stopApiProcesses,
} from './harness';
import { PRODUCT_VARIANTS, productBatch } from './product-items';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1_000_000);
const PER_REQUEST = 100;
const POLL_MS = 250;

type Dialect = 'sqlite' | 'postgres';
type Headers = Record<string, string>;

interface CaseResult {
  seconds: number;
  variantsPerSecond: number;
  peakRssMb: number;
}

/** Runs `work` against the real server on a fresh, seeded database and reports the server's peak RSS. */
async function withApi<T>(
  dialect: Dialect,
  name: string,
  work: (api: RunningApi, headers: Headers) => Promise<T>,
): Promise<T & { peakRssMb: number }> {
  const database = await freshDatabase(dialect, name);
  try {
    const { headers } = await seedIntegrator(database.url);
    const api = await startApiProcesses(database.url, 1);
    try {
      const result = await work(api, headers);
      return { ...result, peakRssMb: peakRssMb(api.child.pid!) };
    } finally {
      await stopApiProcesses(api);
    }
  } finally {
    await database.close();
  }
}

async function ok(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** What both cases end with: the catalog as the API lists it (products and variants), to compare them. */
async function catalogTotals(api: RunningApi, headers: Headers): Promise<{ products: number; variants: number }> {
  const total = async (path: string) =>
    (await ok(await fetch(`${api.baseUrl}${path}?limit=1&page=0`, { headers }), path))['total'] as number;
  return { products: await total('/v10/products'), variants: await total('/v10/variants') };
}

/** The tight loop: `POST /products/sync` of 100 products after another. */
async function syncLoop(dialect: Dialect): Promise<CaseResult & { totals: unknown }> {
  const result = await withApi(dialect, 'bulk-loop', async (api, headers) => {
    const started = process.hrtime.bigint();
    for (let from = 0; from < PRODUCTS; from += PER_REQUEST) {
      const response = await fetch(`${api.baseUrl}/products/sync`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ products: productBatch(from, Math.min(PRODUCTS, from + PER_REQUEST)) }),
      });
      await ok(response, `sync of products ${from}..`);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { seconds, totals: await catalogTotals(api, headers) };
  });
  return { ...result, variantsPerSecond: Math.round((PRODUCTS * PRODUCT_VARIANTS) / result.seconds) };
}

/** NDJSON lines made as the upload reads them, so the file is never held by the benchmark either. */
function ndjson(count: number, line: (index: number) => unknown): Readable {
  let next = 0;
  return new Readable({
    read() {
      const lines: string[] = [];
      for (let i = 0; i < 1000 && next < count; i++, next++) lines.push(JSON.stringify(line(next)));
      if (lines.length > 0) this.push(`${lines.join('\n')}\n`);
      if (next >= count) this.push(null);
    },
  });
}

/** The integrator's headers (which name JSON as their content type) for a body of another type. */
const withoutContentType = (headers: Headers): Headers =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));

async function submit(api: RunningApi, headers: Headers, type: string, body: Readable) {
  const response = await fetch(`${api.baseUrl}/v10/bulk-operations?type=${type}`, {
    method: 'POST',
    headers: { ...withoutContentType(headers), 'Content-Type': 'application/x-ndjson' },
    body: Readable.toWeb(body) as ReadableStream,
    duplex: 'half',
  });
  return (await ok(response, `bulk ${type}`))['bulk_operation'] as { id: number; total_lines: number };
}

/** The same products as one bulk operation, from the first byte sent until it succeeded. */
async function bulkRun(dialect: Dialect): Promise<CaseResult & { totals: unknown; acceptedSeconds: number }> {
  const result = await withApi(dialect, 'bulk-run', async (api, headers) => {
    const started = process.hrtime.bigint();
    const operation = await submit(
      api,
      headers,
      'products.sync',
      ndjson(PRODUCTS, (i) => productBatch(i, i + 1)[0]),
    );
    const acceptedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    for (;;) {
      const shown = (await ok(await fetch(`${api.baseUrl}/v10/bulk-operations/${operation.id}`, { headers }), 'GET'))[
        'bulk_operation'
      ] as { status: string; processed_lines: number; failed_lines: number };
      if (shown.status === 'succeeded') {
        if (shown.failed_lines > 0) throw new Error(`${shown.failed_lines} lines failed`);
        break;
      }
      if (shown.status !== 'queued' && shown.status !== 'running') throw new Error(`the operation ${shown.status}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { seconds, acceptedSeconds, totals: await catalogTotals(api, headers) };
  });
  return { ...result, variantsPerSecond: Math.round((PRODUCTS * PRODUCT_VARIANTS) / result.seconds) };
}

/** A file of a million customers, until it is accepted; then cancelled (running it is not measured here). */
async function customersAccepted(dialect: Dialect): Promise<{ acceptedSeconds: number; peakRssMb: number }> {
  return withApi(dialect, 'bulk-customers', async (api, headers) => {
    const started = process.hrtime.bigint();
    const operation = await submit(
      api,
      headers,
      'customers.sync',
      ndjson(CUSTOMERS, (i) => ({ customer_number: `C${i + 1}`, name: `Customer ${i + 1}`, currency: 'EUR' })),
    );
    const acceptedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (operation.total_lines !== CUSTOMERS) throw new Error(`accepted ${operation.total_lines} lines`);
    await ok(
      await fetch(`${api.baseUrl}/v10/bulk-operations/${operation.id}/cancel`, { method: 'POST', headers }),
      'cancel',
    );
    return { acceptedSeconds };
  });
}

async function main(): Promise<void> {
  const dialects = benchDialects();
  const rows: Record<string, unknown>[] = [];
  process.stdout.write(
    `\nBulk import: ${PRODUCTS} products x ${PRODUCT_VARIANTS} variants, bulk operation against POST /products/sync in calls of ${PER_REQUEST}; ${CUSTOMERS} customers accepted\n`,
  );
  process.stdout.write(
    '| dialect | loop s | loop variants/s | loop peak RSS MB | bulk s (accepted after) | bulk variants/s | bulk ÷ loop | bulk peak RSS MB | customers accepted s | its peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
  );
  for (const dialect of dialects) {
    const loop = await syncLoop(dialect);
    const bulk = await bulkRun(dialect);
    if (JSON.stringify(loop.totals) !== JSON.stringify(bulk.totals))
      throw new Error(
        `the two cases wrote different catalogs: ${JSON.stringify({ loop: loop.totals, bulk: bulk.totals })}`,
      );
    const customers = await customersAccepted(dialect);
    const ratio = +(bulk.variantsPerSecond / loop.variantsPerSecond).toFixed(3);
    process.stdout.write(
      `| ${dialect} | ${loop.seconds.toFixed(1)} | ${loop.variantsPerSecond} | ${loop.peakRssMb} | ${bulk.seconds.toFixed(1)} (${bulk.acceptedSeconds.toFixed(1)}) | ${bulk.variantsPerSecond} | ${ratio} (target >= 0.9) | ${bulk.peakRssMb} | ${customers.acceptedSeconds.toFixed(1)} | ${customers.peakRssMb} |\n`,
    );
    rows.push({ dialect, loop, bulk, ratio, customers });
  }
  saveResults('bulk-import', { products: PRODUCTS, variantsPerProduct: PRODUCT_VARIANTS, customers: CUSTOMERS, rows });
}

if (process.env.BENCH_DIALECTS === 'sqlite')
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
else runOnPostgres(main, __filename);
