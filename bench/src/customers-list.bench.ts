/**
 * Issue 2 benchmark: the API on SQLite with 100,000 customers. In one run it measures
 *   (a) a bare hello route in the same process,
 *   (b) GET /v10/customers?limit=100, the first page, with auth,
 *   (c) the same 90,000 rows deep by cursor,
 * and prints req/s, p99 and the ratios b/a (target ≥ 0.5) and c/b (target ≥ 0.9).
 */
import {
  measure,
  printTable,
  saveResults,
  seedCustomers,
  seedIntegrator,
  startServer,
  stopServer,
  tempDatabasePath,
} from './harness';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const DEPTH = Number(process.env.BENCH_DEPTH ?? 90_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function seed(databaseUrl: string) {
  const { brandId, headers } = await seedIntegrator(databaseUrl);
  const started = Date.now();
  await seedCustomers(databaseUrl, brandId, CUSTOMERS);
  process.stdout.write(
    `seeded ${CUSTOMERS} customers through the sync use case in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return { headers };
}

async function main(): Promise<void> {
  const databaseUrl = tempDatabasePath('customers');
  const { headers } = await seed(databaseUrl);
  const { child, baseUrl } = await startServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'info',
  });
  try {
    const first = `${baseUrl}/v10/customers?limit=100`;
    // A cursor DEPTH rows deep: start after the DEPTH-th id, then take the cursor the API hands out.
    const probe = await fetch(`${baseUrl}/v10/customers?limit=100&starting_after=${DEPTH}`, { headers });
    const probeBody = (await probe.json()) as { next_cursor?: string; customers?: unknown[] };
    if (!probe.ok || !probeBody.next_cursor)
      throw new Error(`could not obtain a deep cursor: ${probe.status} ${JSON.stringify(probeBody).slice(0, 300)}`);
    const deep = `${baseUrl}/v10/customers?limit=100&cursor=${encodeURIComponent(probeBody.next_cursor)}`;

    const hello = await measure('(a) hello, same process', `${baseUrl}/hello`, {}, { seconds: SECONDS });
    const firstPage = await measure('(b) customers, first page of 100, auth', first, headers, { seconds: SECONDS });
    const deepPage = await measure(`(c) customers, page of 100 at ${DEPTH + 100} by cursor`, deep, headers, {
      seconds: SECONDS,
    });
    printTable(`GET /v10/customers on SQLite with ${CUSTOMERS} customers (${SECONDS} s per case, 16 connections)`, [
      hello,
      firstPage,
      deepPage,
    ]);
    const ratios = {
      b_over_a: +(firstPage.requestsPerSecond / hello.requestsPerSecond).toFixed(3),
      c_over_b: +(deepPage.requestsPerSecond / firstPage.requestsPerSecond).toFixed(3),
    };
    process.stdout.write(`\nb/a = ${ratios.b_over_a} (target >= 0.5)\nc/b = ${ratios.c_over_b} (target >= 0.9)\n`);
    saveResults('customers-list', {
      customers: CUSTOMERS,
      depth: DEPTH,
      seconds: SECONDS,
      measurements: [hello, firstPage, deepPage],
      ratios,
    });
  } finally {
    await stopServer(child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
