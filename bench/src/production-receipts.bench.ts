/**
 * Issue 5 benchmark: POST /3pl/production/receive (the warehouse reporting pieces of a delivery
 * note received: note and production order updated, stock In stock raised at the default
 * location, two timeline events) from 50 concurrent clients, against the API on SQLite. In the
 * same run it measures the bare hello route with the same clients and prints receipts/s, p99 and
 * the ratio receipts/hello.
 *
 * Receipts accumulate, so one note can be received again and again; the requests spread over
 * BENCH_NOTES notes of BENCH_ORDERS production orders (a receipt locks its note and its
 * production order, so one order for everything would measure the queue on that row).
 */
import { measure, printTable, saveResults, seedIntegrator, startServer, stopServer, tempDatabasePath } from './harness';

const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 500);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 20);
const NOTES_PER_ORDER = Number(process.env.BENCH_NOTES_PER_ORDER ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const skuOf = (v: number): string => `P${Math.floor(v / 5) + 1}-${SIZES[v % 5]}`;

/** Catalog, a supplier, open production orders and their delivery notes, through the API itself; returns each note's number and SKUs. */
async function seedProduction(
  baseUrl: string,
  headers: Record<string, string>,
): Promise<{ number: number; skus: string[] }[]> {
  for (let from = 0; from < VARIANTS / 5; from += 100) {
    const products = Array.from({ length: Math.min(100, VARIANTS / 5 - from) }, (_, i) => {
      const n = from + i + 1;
      return {
        item_number: `P${n}`,
        name: `Product ${n}`,
        variants: SIZES.map((size) => ({
          sku: `P${n}-${size}`,
          attributes: { size },
          prices: { EUR: { sales_price: 19.99, rec_sales_price: 49.95 } },
        })),
      };
    });
    await post(`${baseUrl}/products/sync`, headers, { products });
  }
  await post(`${baseUrl}/production/suppliers/sync`, headers, {
    suppliers: [{ supplier_number: 'SUP-1', name: 'Bench mill', currency: 'EUR' }],
  });
  const notes: { number: number; skus: string[] }[] = [];
  const perOrder = Math.max(1, Math.floor(VARIANTS / ORDERS));
  for (let o = 0; o < ORDERS; o++) {
    const variants = Array.from({ length: Math.min(perOrder, 50) }, (_, i) => (o * perOrder + i) % VARIANTS);
    const lines = [...new Set(variants)].map((v) => ({ sku: skuOf(v), quantity: 1_000_000 }));
    const created = (await post(`${baseUrl}/v10/production-orders`, headers, { supplier_number: 'SUP-1', lines }))[
      'production_order'
    ] as { id: number };
    await post(`${baseUrl}/v10/production-orders/${created.id}/approve`, headers, undefined);
    for (let n = 0; n < NOTES_PER_ORDER; n++) {
      const noteLines = lines.map((l) => ({ sku: l.sku, quantity: 100_000 }));
      const note = (
        await post(`${baseUrl}/v10/production-orders/${created.id}/delivery-notes`, headers, { lines: noteLines })
      )['production_order_delivery_note'] as { production_order_delivery_note_number: number };
      notes.push({ number: note.production_order_delivery_note_number, skus: noteLines.map((l) => l.sku) });
    }
  }
  return notes;
}

/** A receipt of 1 to 3 lines of a random note, a few pieces each. */
function randomReceipt(notes: { number: number; skus: string[] }[]): string {
  const note = notes[Math.floor(Math.random() * notes.length)]!;
  const count = Math.min(note.skus.length, 1 + Math.floor(Math.random() * 3));
  const start = Math.floor(Math.random() * note.skus.length);
  const lines = Array.from({ length: count }, (_, i) => ({
    sku: note.skus[(start + i) % note.skus.length]!,
    received_quantity: 1 + (i % 4),
  }));
  return JSON.stringify({
    production_order_delivery_note: {
      production_order_delivery_note_number: note.number,
      meta: { dock: String(start % 7) },
      lines,
    },
  });
}

async function main(): Promise<void> {
  const databaseUrl = tempDatabasePath('production');
  const { headers } = await seedIntegrator(databaseUrl);
  const { child, baseUrl } = await startServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  try {
    const notes = await seedProduction(baseUrl, headers);
    const hello = await measure(
      '(a) hello, same process',
      `${baseUrl}/hello`,
      {},
      { connections: CONNECTIONS, seconds: SECONDS },
    );
    const receipts = await measure(
      '(b) 3PL production receipt, 1-3 lines',
      `${baseUrl}/3pl/production/receive`,
      headers,
      {
        connections: CONNECTIONS,
        seconds: SECONDS,
        requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: randomReceipt(notes) }) }],
      },
    );
    printTable(
      `3PL production receipts on SQLite, ${VARIANTS} variants, ${notes.length} delivery notes, ${CONNECTIONS} connections, ${SECONDS} s per case`,
      [hello, receipts],
    );
    const ratio = +(receipts.requestsPerSecond / hello.requestsPerSecond).toFixed(3);
    process.stdout.write(`\nreceipts/hello = ${ratio}\n`);
    saveResults('production-receipts', {
      variants: VARIANTS,
      orders: ORDERS,
      notes: notes.length,
      seconds: SECONDS,
      connections: CONNECTIONS,
      measurements: [hello, receipts],
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
