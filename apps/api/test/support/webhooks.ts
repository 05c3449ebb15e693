import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Clock, DispatchPass, deliverDueWebhooks, systemClock } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';
import { AddressPolicy } from '../../src/infrastructure/address-policy';
import { HttpWebhookSender } from '../../src/infrastructure/http-webhook-sender';

/** What a local receiver got: one entry per request. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

/**
 * A local webhook receiver on 127.0.0.1: answers each request with the next scripted status (the
 * last repeats; a 3xx points elsewhere) and keeps what it got. `url` is its `/hooks` address.
 */
export async function startWebhookReceiver(...statuses: number[]) {
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      if (status >= 300 && status < 400) res.setHeader('location', 'http://127.0.0.1:9/elsewhere');
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The address policy of the tests' deliveries: production's, with the local receivers allowed. */
export const LOOPBACK_ALLOWED = AddressPolicy.withAllowlist(['127.0.0.1'], 'webhook deliveries');

/**
 * One dispatcher pass with the sender production uses. A real clock by default, because receivers
 * (and the standardwebhooks library) refuse timestamps far from their own time.
 */
export function deliverWebhooksOnce(
  storage: Storage,
  options: { owner: string; policy?: AddressPolicy; clock?: Clock; retrySchedule?: readonly number[] },
): Promise<DispatchPass> {
  return deliverDueWebhooks(
    {
      uow: storage.uow,
      clock: options.clock ?? systemClock,
      sender: new HttpWebhookSender({ timeoutMs: 5000, policy: options.policy ?? LOOPBACK_ALLOWED }),
      retrySchedule: options.retrySchedule ?? [0, 0, 0],
    },
    { owner: options.owner, leaseMs: 30_000, limit: 50 },
  );
}
