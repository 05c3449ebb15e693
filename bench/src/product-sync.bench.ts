/**
 * Issue 3 benchmark: POST /products/sync of 10,000 products with 5 variants each (a price in
 * EUR and a stock quantity per variant), in requests of 100 products, against the API on SQLite.
 * In the same run it inserts the rows with raw batched Kysely inserts into fresh databases, twice:
 * the catalog rows as issue 3 defined the baseline, and the same rows as the sync writes them
 * with its events (the outbox of DESIGN §10, about half the bytes). It reports variants/s of
 * each, the ratios (target ≥ 0.5, issue 15) and the server's peak RSS (target < 300 MB).
 */
import { assertSameRowsAsTheSync, rawInsertCatalog } from './raw-catalog-insert';
import { PRODUCT_VARIANTS, productBatch } from './product-items';
import { peakRssMb, saveResults, seedIntegrator, startServer, stopServer, tempDatabasePath } from './harness';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const VARIANTS = PRODUCT_VARIANTS;
const PER_REQUEST = 100;

async function main(): Promise<void> {
  // Raw baselines first, in this process, each into its own database.
  const rawSeconds = await rawInsertCatalog(tempDatabasePath('raw-catalog'), PRODUCTS, PER_REQUEST, productBatch);
  const rawWithEventsDatabase = tempDatabasePath('raw-catalog-events');
  const rawWithEventsSeconds = await rawInsertCatalog(rawWithEventsDatabase, PRODUCTS, PER_REQUEST, productBatch, {
    events: true,
  });

  const databaseUrl = tempDatabasePath('product-sync');
  const { headers } = await seedIntegrator(databaseUrl);
  const { child, baseUrl } = await startServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  let syncSeconds = 0;
  let peak = 0;
  try {
    const started = process.hrtime.bigint();
    for (let from = 0; from < PRODUCTS; from += PER_REQUEST) {
      const response = await fetch(`${baseUrl}/products/sync`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ products: productBatch(from, Math.min(PRODUCTS, from + PER_REQUEST)) }),
      });
      if (response.status !== 200)
        throw new Error(
          `sync of products ${from}.. answered ${response.status}: ${(await response.text()).slice(0, 500)}`,
        );
      await response.arrayBuffer();
    }
    syncSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    peak = peakRssMb(child.pid!);
  } finally {
    await stopServer(child);
  }

  assertSameRowsAsTheSync(rawWithEventsDatabase, databaseUrl);

  const variants = PRODUCTS * VARIANTS;
  const syncRate = Math.round(variants / syncSeconds);
  const rawRate = Math.round(variants / rawSeconds);
  const ratio = +(syncRate / rawRate).toFixed(3);
  const rawWithEventsRate = Math.round(variants / rawWithEventsSeconds);
  const ratioWithEvents = +(syncRate / rawWithEventsRate).toFixed(3);
  process.stdout.write(
    `\nPOST /products/sync: ${PRODUCTS} products x ${VARIANTS} variants in requests of ${PER_REQUEST} (SQLite)\n`,
  );
  process.stdout.write(`| case | seconds | variants/s |\n|---|---:|---:|\n`);
  process.stdout.write(`| sync through the API | ${syncSeconds.toFixed(1)} | ${syncRate} |\n`);
  process.stdout.write(
    `| raw batched Kysely insert of the catalog rows (issue 3) | ${rawSeconds.toFixed(1)} | ${rawRate} |\n`,
  );
  process.stdout.write(
    `| raw batched Kysely insert of the rows the sync writes, events too | ${rawWithEventsSeconds.toFixed(1)} | ${rawWithEventsRate} |\n`,
  );
  process.stdout.write(
    `\nratio sync/raw = ${ratio} against the catalog rows, ${ratioWithEvents} against the rows with events (target >= 0.5)\n` +
      `peak RSS of the API process = ${peak} MB (target < 300 MB)\n`,
  );
  saveResults('product-sync', {
    products: PRODUCTS,
    variantsPerProduct: VARIANTS,
    perRequest: PER_REQUEST,
    syncSeconds,
    rawSeconds,
    syncRate,
    rawRate,
    ratio,
    rawWithEventsSeconds,
    rawWithEventsRate,
    ratioWithEvents,
    peakRssMb: peak,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
