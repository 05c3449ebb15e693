/**
 * @slow: starts API server processes that deliver webhooks; started first (tooling/config/jest-sequencer.js).
 * Runs the built server, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  DomainEvent,
  Order,
  createWebhookEndpoint,
  listEvents,
  listWebhookDeliveries,
  recordEvents,
  systemClock,
} from '@brand/core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Storage, openStorage } from '@brand/persistence-kysely';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { createIntegrator } from './support/integrator';
import { ServerProcess, startServerProcess, stopServerProcess } from './support/server-process';

/**
 * A receiver on loopback: `hang` keeps requests unanswered (a delivery in flight when its
 * process dies), otherwise 200. Keeps every webhook-id it got, in order.
 */
async function startReceiver() {
  const ids: string[] = [];
  let hang = false;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      if (!hang) res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    ids,
    hangFromNowOn: (value: boolean) => (hang = value),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Commits `count` order events for the brand straight through the core (as placing orders would),
 * 50 per transaction; answers their ids, read back from the feed (ids are drawn at commit).
 */
async function announce(storage: Storage, brandId: number, count: number): Promise<number[]> {
  const before = new Set((await feedOf(storage, brandId)).map((e) => e.id));
  for (let start = 0; start < count; start += 50) {
    await storage.uow.run((tx) =>
      recordEvents(
        tx,
        brandId,
        systemClock.now(),
        Array.from({ length: Math.min(50, count - start) }, (_, i) => ({
          type: 'order.created' as const,
          object: { id: start + i + 1, brandId, status: 'draft', lines: [] } as unknown as Order,
          timeline: { note: null, userId: null },
        })),
      ),
    );
  }
  return (await feedOf(storage, brandId)).map((e) => e.id).filter((id) => !before.has(id));
}

/** The brand's whole events feed, oldest first. */
async function feedOf(storage: Storage, brandId: number): Promise<DomainEvent[]> {
  const all: DomainEvent[] = [];
  for (let after = 0; ; ) {
    const { page } = await listEvents(
      { uow: storage.uow },
      { brandId, query: { limit: '100', ...(after > 0 ? { starting_after: String(after) } : {}) } },
    );
    all.push(...page.items);
    if (!page.hasMore) return all;
    after = page.items[page.items.length - 1]!.id;
  }
}

async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  servers: ServerProcess[],
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(
        `${what} did not happen in time; the servers printed:\n${servers.map((s) => s.output()).join('\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Info: the test waits for the server's "API listening" line.
const SERVER_ENV = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '1000', LOG_LEVEL: 'info' };
// A short claim, so the restarted process takes the killed one's delivery soon (the default holds
// twice the timeout and 5 s). Only where one process runs at a time: two sharing the work keep the
// default, under which a slow pass never loses its claims to the other.
const RESTART_ENV = { ...SERVER_ENV, WEBHOOK_LEASE_MS: '2500' };

for (const dialect of testDialects()) {
  describe(`webhook dispatchers in server processes [${dialect}]`, () => {
    // Room for two server starts (each may take up to 90 s on a busy machine) and the deliveries.
    jest.setTimeout(300_000);
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const servers: ServerProcess[] = [];
    // Postgres: a fresh database; SQLite: a file, since the server processes open it too.
    let storage: Storage;
    let url: string;

    beforeEach(async () => {
      receiver = await startReceiver();
      if (dialect === 'postgres') {
        const database = await openTestStorage('postgres');
        storage = database;
        url = database.url;
      } else {
        url = join(mkdtempSync(join(tmpdir(), 'brand-webhooks-')), 'brand.sqlite');
        storage = await openStorage(url);
        await storage.migrate();
      }
    });
    afterEach(async () => {
      for (const server of servers.splice(0)) await stopServerProcess(server);
      await receiver.close();
      await storage.close();
    });

    /** A brand with one endpoint for every event, at the receiver. */
    const subscribedBrand = async () => {
      const brand = await createIntegrator(storage, systemClock);
      const { endpoint } = await createWebhookEndpoint(
        { uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher },
        { brandId: brand.brandId, url: receiver.url, events: ['*'] },
      );
      return { brandId: brand.brandId, endpointId: endpoint.id };
    };
    const pendingDeliveries = async ({ brandId, endpointId }: { brandId: number; endpointId: number }) =>
      (
        await listWebhookDeliveries(
          { uow: storage.uow },
          {
            brandId,
            endpointId,
            query: { filter_groups: [{ filters: [{ key: 'status', operator: 'eq', value: 'pending' }] }], limit: '1' },
          },
        )
      ).page.total;

    it('delivers an event committed while no process ran, and one whose process was killed with SIGKILL in flight, after a restart', async () => {
      const brand = await subscribedBrand();
      const [committedBefore] = await announce(storage, brand.brandId, 1);

      receiver.hangFromNowOn(true);
      const first = await startServerProcess(url, RESTART_ENV);
      servers.push(first);
      await until(() => receiver.ids.length >= 1, 'the first attempt', servers);
      first.child.kill('SIGKILL');
      await first.exited;

      // The attempt was in flight; the delivery is still pending under the dead process's claim.
      receiver.hangFromNowOn(false);
      const [committedAfter] = await announce(storage, brand.brandId, 1);
      servers.push(await startServerProcess(url, RESTART_ENV));
      await until(async () => (await pendingDeliveries(brand)) === 0, 'both deliveries', servers);

      const expected = [committedBefore, committedAfter].map((id) => `evt_${id}`);
      expect(new Set(receiver.ids)).toEqual(new Set(expected));
      // The killed attempt's event came again with the same webhook-id (at least once).
      expect(receiver.ids.filter((id) => id === expected[0]).length).toBeGreaterThanOrEqual(2);
    });

    if (dialect === 'postgres')
      it('shares 500 events between two processes: every one delivered, none twice', async () => {
        const brand = await subscribedBrand();
        servers.push(
          ...(await Promise.all([startServerProcess(url, SERVER_ENV), startServerProcess(url, SERVER_ENV)])),
        );
        const ids = await announce(storage, brand.brandId, 500);
        await until(() => receiver.ids.length >= 500, '500 deliveries', servers);
        await until(async () => (await pendingDeliveries(brand)) === 0, 'every delivery recorded', servers);
        // A little longer: a second delivery of anything would arrive now.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(receiver.ids).toHaveLength(500);
        expect(new Set(receiver.ids)).toEqual(new Set(ids.map((id) => `evt_${id}`)));
      });
  });
}
