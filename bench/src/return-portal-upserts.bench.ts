/**
 * Issue 5 benchmark (external return portals and 3PL return receipts): replays of PUT
 * /v10/external-return-portals/{publicId}/returns (the same body again, so each request reads the
 * portal, the order, the return, its variants and credit notes, finds nothing changed and writes
 * nothing), from 50 concurrent clients against the API on SQLite. Portals resend their upserts
 * often, so the replay is the common case. In the same run it measures the bare hello route with
 * the same clients and prints replays/s, p99 and the ratio replays/hello (target ≥ 0.3).
 * Then POST /3pl/returns/receive: the warehouse reporting an approved return received (pieces
 * back in stock, a draft credit note net of the return fee), each request another return, since
 * a return is received once.
 *
 * BENCH_RETURNS (default 200) returns are announced for the replays and BENCH_RECEIPTS (default
 * 3000) more for the receipts (one order each, 2 lines); BENCH_SECONDS (default 10) per case,
 * RECEIPT_SECONDS (default 5) for the receipts, so that every receipt finds a return to receive.
 */
import { measure, printTable, saveResults, seedIntegrator, startServer, stopServer, tempDatabasePath } from './harness';

const RETURNS = Number(process.env.BENCH_RETURNS ?? 200);
const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 3000);
const RECEIPT_SECONDS = Number(process.env.RECEIPT_SECONDS ?? 5);
/** Parallel requests while seeding (the seed is not measured; it only has to be quick). */
const SEED_CONCURRENCY = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const EMAIL = 'customer@example.com';

async function send(
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<unknown> {
  const response = await fetch(url, { method, headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

/** The upsert body of the n-th return (the same text every time it is sent). */
function upsertBody(n: number, orderNumber: number): string {
  return JSON.stringify({
    email: EMAIL,
    order_number: orderNumber,
    return: {
      rma: `WEB-${n}`,
      notes: 'bench',
      return_fee_incl_vat: 2.5,
      lines: [
        { sku: `P${(n % 20) + 1}-M`, quantity: 1, claim_type: 'return', unit_price_incl_vat: 49.95, text: 'too small' },
        { sku: `P${(n % 20) + 1}-L`, quantity: 1, claim_type: 'claim', unit_price_incl_vat: 49.95 },
      ],
    },
  });
}

/** Catalog, a webshop channel approving its orders, one order per return and a custom portal, through the API itself. */
async function seedPortal(
  baseUrl: string,
  headers: Record<string, string>,
): Promise<{ publicId: string; bodies: string[]; receipts: string[] }> {
  const products = Array.from({ length: 20 }, (_, i) => ({
    item_number: `P${i + 1}`,
    name: `Product ${i + 1}`,
    variants: ['M', 'L'].map((size) => ({
      sku: `P${i + 1}-${size}`,
      attributes: { size },
      prices: { EUR: { sales_price: 19.99, rec_sales_price: 49.95 } },
      inventory: [{ quantity: 1_000_000 }],
    })),
  }));
  await send('POST', `${baseUrl}/products/sync`, headers, { products });
  await send('POST', `${baseUrl}/customers/sync`, headers, {
    customers: [{ customer_number: 'WEBSHOP', name: 'Webshop customers', currency: 'EUR' }],
  });
  const channel = (await send('POST', `${baseUrl}/v10/order-channels`, headers, {
    name: 'Webshop',
    order_type: 'b2c',
    auto_approve: true,
  })) as { order_channel: { public_id: string } };
  const portal = (await send('POST', `${baseUrl}/v10/return-portals`, headers, {
    name: 'Returns',
    type: 'custom',
  })) as { return_portal: { public_id: string } };
  const publicId = portal.return_portal.public_id;
  const bodies: string[] = [];
  const receipts: string[] = [];
  let next = 1;
  const announce = async (): Promise<void> => {
    for (let n = next++; n <= RETURNS + RECEIPTS; n = next++) {
      const sku = (size: string) => `P${(n % 20) + 1}-${size}`;
      const placed = (await send(
        'POST',
        `${baseUrl}/v10/order-channels/${channel.order_channel.public_id}/orders`,
        headers,
        {
          order: {
            customer_number: 'WEBSHOP',
            email: EMAIL,
            lines: [
              { sku: sku('M'), quantity: 1 },
              { sku: sku('L'), quantity: 1 },
            ],
          },
        },
      )) as { order: { order_number: number } };
      const body = upsertBody(n, placed.order.order_number);
      await send('PUT', `${baseUrl}/v10/external-return-portals/${publicId}/returns`, headers, JSON.parse(body));
      if (n <= RETURNS) bodies.push(body);
      else
        receipts.push(
          JSON.stringify({
            return: {
              rma: `WEB-${n}`,
              lines: [
                { sku: sku('M'), received_quantity: 1 },
                { sku: sku('L'), received_quantity: 1 },
              ],
            },
          }),
        );
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, announce));
  return { publicId, bodies, receipts };
}

async function main(): Promise<void> {
  const databaseUrl = tempDatabasePath('return-portals');
  const { headers } = await seedIntegrator(databaseUrl);
  const { child, baseUrl } = await startServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  try {
    const { publicId, bodies, receipts } = await seedPortal(baseUrl, headers);
    const url = `${baseUrl}/v10/external-return-portals/${publicId}/returns`;
    const hello = await measure(
      '(a) hello, same process',
      `${baseUrl}/hello`,
      {},
      { connections: CONNECTIONS, seconds: SECONDS },
    );
    const replays = await measure('(b) portal upsert replay (2 lines, nothing changes)', url, headers, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      requests: [
        {
          method: 'PUT',
          setupRequest: (request) => ({ ...request, body: bodies[Math.floor(Math.random() * bodies.length)]! }),
        },
      ],
    });
    // The floor every authenticated call pays (token, rate limit, request log): a one-row list.
    const floor = await measure(
      '(c) GET /v10/return-portals (authenticated floor)',
      `${baseUrl}/v10/return-portals`,
      headers,
      { connections: CONNECTIONS, seconds: SECONDS },
    );
    // Every receipt takes the next return; warm-up and measurement together must not run out of them.
    let taken = 0;
    const received = await measure(
      '(d) 3PL return receipt (2 lines, restock, credit note)',
      `${baseUrl}/3pl/returns/receive`,
      headers,
      {
        connections: CONNECTIONS,
        seconds: RECEIPT_SECONDS,
        warmupSeconds: 1,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({ ...request, body: receipts[Math.min(taken++, receipts.length - 1)]! }),
          },
        ],
      },
    );
    printTable(
      `Portal upsert replays and 3PL return receipts on SQLite, ${RETURNS} + ${RECEIPTS} returns, ${CONNECTIONS} connections`,
      [hello, replays, floor, received],
    );
    if (taken > receipts.length)
      process.stdout.write(
        `\nwarning: ${taken - receipts.length} receipts found no return left (raise BENCH_RECEIPTS)\n`,
      );
    const ratio = +(replays.requestsPerSecond / hello.requestsPerSecond).toFixed(3);
    const ofFloor = +(replays.requestsPerSecond / floor.requestsPerSecond).toFixed(3);
    const receiptRatio = +(received.requestsPerSecond / hello.requestsPerSecond).toFixed(3);
    process.stdout.write(
      `\nreplays/hello = ${ratio} (target >= 0.3); replays/authenticated floor = ${ofFloor}; return receipts/hello = ${receiptRatio}\n`,
    );
    saveResults('return-portal-upserts', {
      returns: RETURNS,
      receipts: RECEIPTS,
      seconds: SECONDS,
      connections: CONNECTIONS,
      measurements: [hello, replays, floor, received],
      ratio,
      ofFloor,
      receiptRatio,
    });
  } finally {
    await stopServer(child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
