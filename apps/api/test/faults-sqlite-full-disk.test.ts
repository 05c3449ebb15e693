import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { FixedClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { testDialects } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { OrderingBrand, postOrder, seedOrderingBrand, stockOf } from './support/orders';
import { SmallDisk, canMountSmallDisk } from './support/small-disk';
import { TestContext, buildApp, closeServer, listenOnLoopback } from './support/test-app';

const PIECES_PER_ORDER = 12;
const INITIAL_STOCK = 100_000;

/** SQLite's own check of the file, on a separate read-only connection. */
function integrityOf(path: string): string {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

// A real full disk needs a filesystem of the test's own (a tmpfs, mounted as root: the test
// machines and CI run as root). SQLite only: Postgres keeps its data in the server's folder.
// Skipped, not left out, when the run has no SQLite: a file without a test fails jest.
(testDialects().includes('sqlite') && canMountSmallDisk() ? describe : describe.skip)(
  'SQLite on a full disk [sqlite]',
  () => {
    jest.setTimeout(60_000);
    let disk: SmallDisk;
    let databasePath: string;
    const t = {} as TestContext;
    let shop: OrderingBrand;
    /** The app's log lines, parsed. */
    const logged: { msg?: string; req?: { id?: string }; err?: { code?: string; message?: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });

    beforeAll(async () => {
      disk = SmallDisk.mount(16);
      databasePath = join(disk.folder, 'brand.sqlite');
      t.storage = Object.assign(await openStorage(databasePath), { url: databasePath });
      await t.storage.migrate();
      t.clock = new FixedClock('2026-03-01T09:00:00.000Z');
      t.app = buildApp(t.storage, t.clock, { logger });
      t.server = await listenOnLoopback(t.app);
      t.flushRequestLog = () => requestLogOf(t.app).flush();
      shop = await seedOrderingBrand(t, { stock: { 'SOCK-42': INITIAL_STOCK } });
    });

    afterAll(async () => {
      if (t.server) await closeServer(t.server);
      await t.storage?.close();
      disk?.unmount();
    });

    const order = (reference: string) =>
      postOrder(t, shop.brand, shop.channels.b2b, {
        customer_number: 'C-B2B',
        reference,
        lines: [{ sku: 'SOCK-42', quantity: PIECES_PER_ORDER }],
      });

    async function storedReferences(): Promise<string[]> {
      const response = await request(t.server).get('/v10/orders?limit=100').set(shop.brand.headers);
      expect(response.status).toBe(200);
      return (response.body.orders as { reference: string }[]).map((o) => o.reference).sort();
    }

    it('refuses writes with 503 and Retry-After, keeps serving reads, stores nothing partial, and writes again once space is freed', async () => {
      expect((await order('before-full')).status).toBe(201);
      const acknowledged = ['before-full'];

      const filler = disk.fill();

      // The WAL may still hold room for a few commits; the disk refuses the write that needs more.
      let refused: request.Response | null = null;
      for (let attempt = 1; attempt <= 200 && !refused; attempt++) {
        const response = await order(`while-full-${attempt}`);
        if (response.status === 201) acknowledged.push(`while-full-${attempt}`);
        else refused = response;
      }
      expect(refused).not.toBeNull();
      expect(refused!.status).toBe(503);
      expect(refused!.headers['retry-after']).toBe('5');
      expect(refused!.body.errors).toEqual([expect.objectContaining({ status: 503, code: 'storage_unavailable' })]);

      // Another kind of write is refused the same way.
      const sync = await request(t.server)
        .post('/customers/sync')
        .set(shop.brand.headers)
        .send({ customers: [{ customer_number: 'C-FULL', name: 'Disk full', currency: 'EUR' }] });
      expect(sync.status).toBe(503);

      // Reads are served although their request log and rate-limit counters cannot be written.
      const customers = await request(t.server).get('/v10/customers').set(shop.brand.headers);
      expect(customers.status).toBe(200);
      expect(customers.body.customers.map((c: { customer_number: string }) => c.customer_number)).not.toContain(
        'C-FULL',
      );
      await t.flushRequestLog();

      // Readiness stays 200 on a full disk: the database answers and serves reads, and taking the
      // process out of its load balancer would refuse those reads too (docs/operations.md).
      const ready = await request(t.server).get('/health/ready');
      expect({ status: ready.status, body: ready.body }).toEqual({ status: 200, body: { status: 'ok' } });
      expect((await request(t.server).get('/health/live')).status).toBe(200);

      // Nothing partial: exactly the acknowledged orders exist, and stock is reserved for them alone.
      expect(await storedReferences()).toEqual([...acknowledged].sort());
      expect(await stockOf(t, shop.brand, 'SOCK-42')).toEqual({
        in_stock: INITIAL_STOCK,
        available: INITIAL_STOCK - PIECES_PER_ORDER * acknowledged.length,
      });
      expect(integrityOf(databasePath)).toBe('ok');

      // The refused request's log line names the real cause (the disk refusing a write: SQLITE_FULL,
      // or SQLITE_IOERR_* when the write that failed was a checkpoint's), never a failed rollback
      // standing in for it.
      const refusedLine = logged.find((line) => line.req?.id === refused!.headers['x-request-id']);
      expect(refusedLine?.err?.code).toMatch(/^SQLITE_(FULL|IOERR)/);
      expect(logged.filter((line) => /rollback/i.test(line.err?.message ?? ''))).toEqual([]);

      // Space comes back: the same process writes again, no restart.
      disk.free(filler);
      const after = await order('after-freed');
      expect(after.status).toBe(201);
      acknowledged.push('after-freed');
      expect(await storedReferences()).toEqual([...acknowledged].sort());
      expect(await stockOf(t, shop.brand, 'SOCK-42')).toEqual({
        in_stock: INITIAL_STOCK,
        available: INITIAL_STOCK - PIECES_PER_ORDER * acknowledged.length,
      });
      expect(integrityOf(databasePath)).toBe('ok');
    });
  },
);
