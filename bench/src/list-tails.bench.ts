/**
 * Issue 37 item 4: the tails of the lists under load. Each list of 100 is asked by 50 connections
 * of the real server (`npm start`'s process, its request log on), on SQLite and on Postgres:
 *   (a) products with their variants, prices and stock   GET /v10/products?limit=100&includes[]=…
 *   (b) products alone                                   GET /v10/products?limit=100
 *   (c) variants                                         GET /v10/variants?limit=100
 *   (d) customers                                        GET /v10/customers?limit=100
 * and prints req/s, p50, p99 and p99 ÷ p50 (target ≤ 3 on every list and dialect).
 *
 * BENCH_PRODUCTS (default 10,000, 5 variants each, written through POST /products/sync),
 * BENCH_CUSTOMERS (default 20,000), BENCH_SECONDS (per case, default 10), BENCH_CONNECTIONS
 * (default 50), BENCH_WORKERS (server processes, default 1), BENCH_ONLY=<text> (only the cases
 * whose name contains it), BENCH_DIALECTS=sqlite leaves Postgres out, =postgres SQLite.
 */
import {
  benchDialects,
  freshDatabase,
  Measurement,
  measure,
  runOnPostgres,
  saveResults,
  seedCustomers,
  seedIntegrator,
  startApiProcesses,
  stopApiProcesses,
} from './harness';
import { productBatch } from './product-items';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const ONLY = process.env.BENCH_ONLY;
const TARGET = 3;

type Dialect = 'sqlite' | 'postgres';

const CASES = [
  {
    name: '(a) products with variants, prices and stock',
    path: '/v10/products?limit=100&includes[]=variants&includes[]=variants.prices&includes[]=variants.inventory',
  },
  { name: '(b) products alone', path: '/v10/products?limit=100' },
  { name: '(c) variants', path: '/v10/variants?limit=100' },
  { name: '(d) customers', path: '/v10/customers?limit=100' },
].filter((c) => ONLY === undefined || c.name.includes(ONLY));

/** The catalog through the sync endpoint (so its rows are the API's own), then the customers. */
async function seed(baseUrl: string, headers: Record<string, string>): Promise<void> {
  for (let from = 0; from < PRODUCTS; from += 100) {
    const response = await fetch(`${baseUrl}/products/sync`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ products: productBatch(from, Math.min(PRODUCTS, from + 100)) }),
    });
    if (!response.ok) throw new Error(`sync answered ${response.status}: ${await response.text()}`);
  }
}

async function run(dialect: Dialect): Promise<(Measurement & { dialect: Dialect; tailRatio: number })[]> {
  const database = await freshDatabase(dialect, 'list-tails');
  try {
    const { brandId, headers } = await seedIntegrator(database.url);
    await seedCustomers(database.url, brandId, CUSTOMERS);
    const api = await startApiProcesses(database.url, WORKERS);
    try {
      await seed(api.baseUrl, headers);
      const results = [];
      for (const spec of CASES) {
        const measured = await measure(spec.name, `${api.baseUrl}${spec.path}`, headers, {
          connections: CONNECTIONS,
          seconds: SECONDS,
          serverPid: WORKERS === 1 ? api.child.pid! : undefined,
        });
        if (measured.non2xx > 0 || measured.errors > 0)
          throw new Error(`${spec.name}: ${measured.non2xx} answers not 2xx, ${measured.errors} errors`);
        const tailRatio = +(measured.p99Ms / Math.max(measured.p50Ms, 1)).toFixed(2);
        process.stdout.write(
          `| ${dialect} | ${spec.name} | ${measured.requestsPerSecond} | ${measured.p50Ms} | ${measured.p99Ms} | ${tailRatio} (target <= ${TARGET}) | ${measured.cpuMicrosPerRequest ?? '—'} |\n`,
        );
        results.push({ ...measured, dialect, tailRatio });
      }
      return results;
    } finally {
      await stopApiProcesses(api);
    }
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const dialects = benchDialects();
  process.stdout.write(
    `\nLists of 100 at ${CONNECTIONS} connections, ${WORKERS} server process(es), ${PRODUCTS} products x 5 variants, ${CUSTOMERS} customers, ${SECONDS} s a case\n` +
      '| dialect | case | req/s | p50 ms | p99 ms | p99 ÷ p50 | CPU µs/request |\n|---|---|---:|---:|---:|---:|---:|\n',
  );
  const rows = [];
  for (const dialect of dialects) rows.push(...(await run(dialect)));
  saveResults('list-tails', { products: PRODUCTS, customers: CUSTOMERS, connections: CONNECTIONS, rows });
}

if (process.env.BENCH_DIALECTS === 'sqlite')
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
else runOnPostgres(main, __filename);
