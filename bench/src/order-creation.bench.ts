/**
 * Issue 4 benchmark (a): POST /v10/order-channels/{publicId}/orders with 3 lines each (stock is
 * reserved for every line) from 50 concurrent clients, against the API on SQLite. In the same
 * run it measures the bare hello route with the same 50 clients and prints orders/s, p99 and the
 * ratio orders/hello (target ≥ 0.3).
 */
import {
  Shop,
  measure,
  printTable,
  randomOrder,
  saveResults,
  seedIntegrator,
  seedShop,
  startServer,
  stopServer,
  tempDatabasePath,
} from './harness';

const SHOP: Shop = {
  variants: Number(process.env.BENCH_VARIANTS ?? 1000),
  customers: Number(process.env.BENCH_CUSTOMERS ?? 100),
  /** Enough pieces that no order of the run is refused for short stock. */
  stockPerVariant: 1_000_000,
};
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

async function main(): Promise<void> {
  const databaseUrl = tempDatabasePath('orders');
  const { headers } = await seedIntegrator(databaseUrl);
  const { child, baseUrl } = await startServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  try {
    const publicId = await seedShop(baseUrl, headers, SHOP);
    const ordersUrl = `${baseUrl}/v10/order-channels/${publicId}/orders`;
    const hello = await measure(
      '(a) hello, same process',
      `${baseUrl}/hello`,
      {},
      { connections: CONNECTIONS, seconds: SECONDS },
    );
    const orders = await measure('(b) order with 3 lines + reservation', ordersUrl, headers, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: randomOrder(SHOP) }) }],
    });
    printTable(
      `Order creation on SQLite, ${SHOP.variants} variants, ${CONNECTIONS} connections, ${SECONDS} s per case`,
      [hello, orders],
    );
    const ratio = +(orders.requestsPerSecond / hello.requestsPerSecond).toFixed(3);
    process.stdout.write(`\norders/hello = ${ratio} (target >= 0.3)\n`);
    saveResults('order-creation', {
      variants: SHOP.variants,
      customers: SHOP.customers,
      seconds: SECONDS,
      connections: CONNECTIONS,
      measurements: [hello, orders],
      ratio,
    });
  } finally {
    await stopServer(child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
