/**
 * Issue 16 benchmark: webhooks on SQLite.
 *   (a) order creation (3 lines, 50 connections) on two copies of one shop, one with a webhook
 *       endpoint subscribed to every event (its deliveries sent by the server's own dispatcher to
 *       a local receiver answering 204), one without; the servers take turns in rounds and the
 *       ratio is the median of the rounds'. Target: subscribed ≥ 0.9 of none.
 *   (b) delivery throughput: BENCH_EVENTS events (default 5,000) committed at once; the time until
 *       the receiver has every one, as events per second, with one dispatcher (one API process).
 * BENCH_SECONDS (per case and server, default 10), BENCH_ROUNDS (default 5).
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Order, createWebhookEndpoint, recordEvents, systemClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { nodeSecretHasher } from '@brand/api';
import {
  Measurement,
  Shop,
  copyDatabase,
  measure,
  median,
  randomOrder,
  saveResults,
  seedIntegrator,
  seedShop,
  startServer,
  stopServer,
  tempDatabasePath,
} from './harness';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);
const SHOP: Shop = { variants: 1000, customers: 100, stockPerVariant: 1_000_000 };
const SERVER_ENV = { RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'info', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };

const databases: string[] = [];

/** A receiver answering 204 to everything, counting what it got. */
async function startReceiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function subscribe(path: string, brandId: number, url: string): Promise<void> {
  const storage = await openStorage(path);
  await createWebhookEndpoint(
    { uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher },
    { brandId, url, events: ['*'] },
  );
  await storage.close();
}

async function main(): Promise<void> {
  const receiver = await startReceiver();
  const seedPath = tempDatabasePath('webhooks-seed');
  databases.push(seedPath);
  const { brandId, headers } = await seedIntegrator(seedPath);
  const seeding = await startServer({ ...SERVER_ENV, DATABASE_URL: seedPath });
  const publicId = await seedShop(seeding.baseUrl, headers, SHOP);
  await stopServer(seeding.child);

  // (a) order creation, with and without a subscribed endpoint.
  const nonePath = await copyDatabase(seedPath, 'webhooks-none');
  const subscribedPath = await copyDatabase(seedPath, 'webhooks-subscribed');
  databases.push(nonePath, subscribedPath);
  await subscribe(subscribedPath, brandId, receiver.url);
  const none = await startServer({ ...SERVER_ENV, DATABASE_URL: nonePath });
  const subscribed = await startServer({ ...SERVER_ENV, DATABASE_URL: subscribedPath });
  const rounds: { none: Measurement; subscribed: Measurement }[] = [];
  try {
    const run = (baseUrl: string, name: string, round: number) =>
      measure(name, `${baseUrl}/v10/order-channels/${publicId}/orders`, headers, {
        seconds: SECONDS / ROUNDS,
        warmupSeconds: round === 0 ? 2 : 1,
        connections: 50,
        requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: randomOrder(SHOP) }) }],
      });
    for (let round = 0; round < ROUNDS; round++)
      rounds.push({
        none: await run(none.baseUrl, 'orders, no endpoint', round),
        subscribed: await run(subscribed.baseUrl, 'orders, one subscribed endpoint', round),
      });
  } finally {
    await stopServer(none.child);
    await stopServer(subscribed.child);
  }
  const ratios = rounds.map((r) => +(r.subscribed.requestsPerSecond / r.none.requestsPerSecond).toFixed(3));
  const mean = (pick: (r: (typeof rounds)[number]) => Measurement) =>
    Math.round(rounds.reduce((sum, r) => sum + pick(r).requestsPerSecond, 0) / rounds.length);
  const ordersDelivered = receiver.received();

  // (b) delivery throughput of one process.
  const throughputPath = await copyDatabase(seedPath, 'webhooks-throughput');
  databases.push(throughputPath);
  await subscribe(throughputPath, brandId, receiver.url);
  const storage = await openStorage(throughputPath);
  for (let start = 0; start < EVENTS; start += 500)
    await storage.uow.run((tx) =>
      recordEvents(
        tx,
        brandId,
        systemClock.now(),
        Array.from({ length: Math.min(500, EVENTS - start) }, (_, i) => ({
          type: 'order.created' as const,
          object: { id: start + i + 1, brandId, status: 'draft', lines: [] } as unknown as Order,
          timeline: { note: null, userId: null },
        })),
      ),
    );
  await storage.close();
  const before = receiver.received();
  const started = Date.now();
  const dispatcher = await startServer({ ...SERVER_ENV, DATABASE_URL: throughputPath });
  while (receiver.received() - before < EVENTS) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (Date.now() - started) / 1000;
  await stopServer(dispatcher.child);
  await receiver.close();

  const result = {
    orders: {
      noneRequestsPerSecond: mean((r) => r.none),
      subscribedRequestsPerSecond: mean((r) => r.subscribed),
      roundRatios: ratios,
      ratio: median(ratios),
      target: 0.9,
      p99Ms: {
        none: median(rounds.map((r) => r.none.p99Ms)),
        subscribed: median(rounds.map((r) => r.subscribed.p99Ms)),
      },
      deliveriesDuringTheRounds: ordersDelivered,
    },
    throughput: { events: EVENTS, seconds: +seconds.toFixed(2), eventsPerSecond: Math.round(EVENTS / seconds) },
  };
  process.stdout.write(
    `\n(a) order creation: no endpoint ${result.orders.noneRequestsPerSecond} req/s, one subscribed endpoint ` +
      `${result.orders.subscribedRequestsPerSecond} req/s; ratios by round ${ratios.join(' / ')}, median ${result.orders.ratio} ` +
      `(target >= 0.9); p99 ${result.orders.p99Ms.none} / ${result.orders.p99Ms.subscribed} ms; ${ordersDelivered} deliveries sent meanwhile\n` +
      `(b) ${EVENTS} events delivered by one process in ${result.throughput.seconds} s: ${result.throughput.eventsPerSecond} events/s\n`,
  );
  saveResults('webhooks', result);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const path of databases) rmSync(dirname(path), { recursive: true, force: true });
  });
