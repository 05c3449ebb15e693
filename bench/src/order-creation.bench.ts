/**
 * Issue 4 benchmark (a): POST /v10/order-channels/{publicId}/orders with 3 lines each (stock is
 * reserved for every line) from 50 concurrent clients, against the API on SQLite. In the same
 * run it measures the bare hello route with the same 50 clients and prints orders/s, p99 and the
 * ratio orders/hello (target ≥ 0.3).
 */
import { measure, printTable, saveResults, seedIntegrator, startServer, stopServer, tempDatabasePath } from './harness';

const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 1000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
/** Enough pieces that no order of the run is refused for short stock. */
const STOCK_PER_VARIANT = 1_000_000;

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

/** Catalog, stock, customers and a B2B channel, through the API itself. */
async function seedShop(baseUrl: string, headers: Record<string, string>): Promise<string> {
  for (let from = 0; from < VARIANTS / 5; from += 100) {
    const products = Array.from({ length: Math.min(100, VARIANTS / 5 - from) }, (_, i) => {
      const n = from + i + 1;
      return {
        item_number: `P${n}`,
        name: `Product ${n}`,
        variants: ['XS', 'S', 'M', 'L', 'XL'].map((size) => ({
          sku: `P${n}-${size}`,
          attributes: { size },
          prices: { EUR: { sales_price: 19.99, rec_sales_price: 49.95 } },
          inventory: [{ quantity: STOCK_PER_VARIANT }],
        })),
      };
    });
    await post(`${baseUrl}/products/sync`, headers, { products });
  }
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => ({
    customer_number: `C${i + 1}`,
    name: `Customer ${i + 1}`,
    currency: 'EUR',
    discount_percentage: 10,
  }));
  await post(`${baseUrl}/customers/sync`, headers, { customers });
  const channel = (await post(`${baseUrl}/v10/order-channels`, headers, { name: 'ERP', order_type: 'b2b' })) as {
    order_channel: { public_id: string };
  };
  return channel.order_channel.public_id;
}

/** A different order for every request: a random customer and 3 random distinct variants. */
function randomOrder(): string {
  const picked = new Set<number>();
  while (picked.size < 3) picked.add(Math.floor(Math.random() * VARIANTS));
  const sizes = ['XS', 'S', 'M', 'L', 'XL'];
  const lines = [...picked].map((v) => ({ sku: `P${Math.floor(v / 5) + 1}-${sizes[v % 5]}`, quantity: 1 + (v % 3) }));
  return JSON.stringify({
    order: { customer_number: `C${1 + Math.floor(Math.random() * CUSTOMERS)}`, reference: 'bench', lines },
  });
}

async function main(): Promise<void> {
  const databaseUrl = tempDatabasePath('orders');
  const { headers } = await seedIntegrator(databaseUrl);
  const { child, baseUrl } = await startServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  try {
    const publicId = await seedShop(baseUrl, headers);
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
      requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: randomOrder() }) }],
    });
    printTable(`Order creation on SQLite, ${VARIANTS} variants, ${CONNECTIONS} connections, ${SECONDS} s per case`, [
      hello,
      orders,
    ]);
    const ratio = +(orders.requestsPerSecond / hello.requestsPerSecond).toFixed(3);
    process.stdout.write(`\norders/hello = ${ratio} (target >= 0.3)\n`);
    saveResults('order-creation', {
      variants: VARIANTS,
      customers: CUSTOMERS,
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
