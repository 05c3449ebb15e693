/**
 * Issue 4 benchmark (b): an export walk over 100,000 orders with 3 lines each,
 * GET /v10/orders/export?system_id=…&limit=100&includes[]=lines followed by `next_cursor` to the
 * end, against the API on SQLite. Prints the time of page 1 against page 1,000 (ratio target
 * ≤ 1.2, measured both in the walk and as req/s under load) and the API process's peak RSS
 * (target < 250 MB).
 */
import { Order, OrderLine, systemClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import {
  measure,
  peakRssMb,
  printTable,
  saveResults,
  seedIntegrator,
  startServer,
  stopServer,
  tempDatabasePath,
} from './harness';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const PAGE = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const BATCH = 1000;

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

/** Orders are written straight through the order repository (placing 100,000 through the API would take the run's time). */
async function seedOrders(
  databaseUrl: string,
  brandId: number,
  channel: { id: number },
  customer: { id: number; number: string },
  variants: { id: number; productId: number; sku: string }[],
): Promise<void> {
  const storage = await openStorage(databaseUrl);
  const at = systemClock.now();
  for (let from = 0; from < ORDERS; from += BATCH) {
    const count = Math.min(BATCH, ORDERS - from);
    await storage.uow.run(async (tx) => {
      const orderIds = await tx.ids.next('orders', count);
      const lineIds = await tx.ids.next('order_lines', count * 3);
      for (let i = 0; i < count; i++) {
        const n = from + i + 1;
        const lines: OrderLine[] = [0, 1, 2].map((k) => {
          const variant = variants[(n + k) % variants.length]!;
          return {
            id: lineIds[i * 3 + k]!,
            orderId: orderIds[i]!,
            variantId: variant.id,
            productId: variant.productId,
            sku: variant.sku,
            ean: null,
            itemNumber: variant.sku.split('-')[0]!,
            productName: 'Bench product',
            attributes: { size: variant.sku.split('-')[1]! },
            countryOfOrigin: null,
            composition: null,
            hsTariffCode: null,
            tracksInventory: true,
            quantity: 2,
            unitPrice: 1999,
            discountBasisPoints: 0,
            totalPrice: 3998,
            reservations: [],
            shippedQuantity: 0,
            deliveredQuantity: 0,
            invoicedQuantity: 0,
            regulatedQuantity: 0,
          };
        });
        const order: Order = {
          id: orderIds[i]!,
          brandId,
          orderNumber: n,
          status: 'approved',
          orderType: 'b2b',
          orderChannelId: channel.id,
          customerId: customer.id,
          customerNumber: customer.number,
          dropId: null,
          currency: 'EUR',
          vatRateBasisPoints: 2500,
          pricesIncludeVat: false,
          email: null,
          telephone: null,
          reference: `REF-${n}`,
          notes: null,
          invoiceAddress: null,
          deliveryAddress: null,
          shippingCode: null,
          shippingCost: null,
          responsiblePerson: null,
          orderMeta: {},
          netTotal: 11994,
          vatTotal: 2999,
          total: 14993,
          approvedAt: at,
          cancelledAt: null,
          archivedAt: null,
          createdByUserId: null,
          createdAt: at,
          updatedAt: at,
          lines,
        };
        await tx.orders.save(order);
      }
    });
  }
  await storage.close();
}

async function main(): Promise<void> {
  const databaseUrl = tempDatabasePath('orders-export');
  const { brandId, headers } = await seedIntegrator(databaseUrl);
  const { child, baseUrl } = await startServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  let restarted: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const products = Array.from({ length: 20 }, (_, i) => ({
      item_number: `P${i + 1}`,
      name: `Product ${i + 1}`,
      variants: ['S', 'M', 'L'].map((size) => ({
        sku: `P${i + 1}-${size}`,
        attributes: { size },
        prices: { EUR: { sales_price: 19.99, rec_sales_price: 49.95 } },
      })),
    }));
    await post(`${baseUrl}/products/sync`, headers, { products });
    await post(`${baseUrl}/customers/sync`, headers, {
      customers: [{ customer_number: 'C1', name: 'Customer 1', currency: 'EUR' }],
    });
    const channel = (await post(`${baseUrl}/v10/order-channels`, headers, { name: 'ERP', order_type: 'b2b' })) as {
      order_channel: { id: number };
    };
    const variantsPage = (await (await fetch(`${baseUrl}/v10/variants?limit=100`, { headers })).json()) as {
      variants: { id: number; product_id: number; sku: string }[];
    };
    const customers = (await (await fetch(`${baseUrl}/v10/customers`, { headers })).json()) as {
      customers: { id: number }[];
    };
    await stopServer(child);

    const seeded = Date.now();
    await seedOrders(
      databaseUrl,
      brandId,
      channel.order_channel,
      { id: customers.customers[0]!.id, number: 'C1' },
      variantsPage.variants.map((v) => ({ id: v.id, productId: v.product_id, sku: v.sku })),
    );
    process.stdout.write(
      `seeded ${ORDERS} orders with 3 lines each in ${((Date.now() - seeded) / 1000).toFixed(1)} s\n`,
    );

    restarted = await startServer({ DATABASE_URL: databaseUrl, RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'warn' });
    const first = `${restarted.baseUrl}/v10/orders/export?system_id=bench-erp&limit=${PAGE}&includes[]=lines`;
    const pageTimes: number[] = [];
    let url: string | null = first;
    let thousandth: string | null = null;
    let exported = 0;
    const walkStarted = process.hrtime.bigint();
    while (url) {
      const started = process.hrtime.bigint();
      const response = await fetch(url, { headers });
      const body = (await response.json()) as { orders: unknown[]; has_more: boolean; next_cursor: string | null };
      pageTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (!response.ok)
        throw new Error(
          `export page ${pageTimes.length} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`,
        );
      exported += body.orders.length;
      if (pageTimes.length === 999 && body.next_cursor)
        thousandth = `${first}&cursor=${encodeURIComponent(body.next_cursor)}`;
      url = body.has_more && body.next_cursor ? `${first}&cursor=${encodeURIComponent(body.next_cursor)}` : null;
    }
    const walkSeconds = Number(process.hrtime.bigint() - walkStarted) / 1e9;
    const peak = peakRssMb(restarted.child.pid!);
    if (exported !== ORDERS) throw new Error(`the walk exported ${exported} orders, expected ${ORDERS}`);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const walk = {
      pages: pageTimes.length,
      walkSeconds: +walkSeconds.toFixed(1),
      page1Ms: +pageTimes[0]!.toFixed(1),
      page1000Ms: +(pageTimes[999] ?? NaN).toFixed(1),
      first10MeanMs: +mean(pageTimes.slice(1, 11)).toFixed(1),
      last10MeanMs: +mean(pageTimes.slice(990, 1000)).toFixed(1),
    };
    process.stdout.write(
      `\nwalk of ${walk.pages} pages in ${walk.walkSeconds} s: page 1 ${walk.page1Ms} ms (cold), pages 2-11 mean ${walk.first10MeanMs} ms, pages 991-1000 mean ${walk.last10MeanMs} ms\n`,
    );

    if (!thousandth) throw new Error('the walk did not reach page 1,000');
    const page1 = await measure('page 1 (100 orders with lines)', first, headers, { connections: 4, seconds: SECONDS });
    const page1000 = await measure('page 1,000 by cursor', thousandth, headers, { connections: 4, seconds: SECONDS });
    printTable(
      `GET /v10/orders/export on SQLite, ${ORDERS} orders x 3 lines, pages of ${PAGE} (${SECONDS} s per case, 4 connections)`,
      [page1, page1000],
    );
    const ratio = +(page1.requestsPerSecond / page1000.requestsPerSecond).toFixed(3);
    const walkRatio = +(walk.last10MeanMs / walk.first10MeanMs).toFixed(3);
    process.stdout.write(
      `\ntime(page 1000)/time(page 1) = ${ratio} under load, ${walkRatio} in the walk (target <= 1.2)\npeak RSS of the API process = ${peak} MB (target < 250 MB)\n`,
    );
    saveResults('orders-export', {
      orders: ORDERS,
      pageSize: PAGE,
      walk,
      measurements: [page1, page1000],
      ratio,
      walkRatio,
      peakRssMb: peak,
    });
  } finally {
    if (restarted) await stopServer(restarted.child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
