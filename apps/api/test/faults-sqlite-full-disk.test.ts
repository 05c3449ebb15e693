import BetterSqlite3 from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { FixedClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { testDialects } from '@brand/persistence-kysely/testing';
import { requestLogOf } from '../src/app';
import { DEFAULT_CONFIG } from '../src/config';
import { seedProduct, storedImages } from './images/support/catalog';
import { ImageServer, startImageServer } from './images/support/image-server';
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
    let imageHost: ImageServer;
    /** Image blobs live on the same small disk as the database, as with one data volume. */
    let blobDir: string;
    /** The app's log lines, parsed. */
    const logged: { msg?: string; req?: { id?: string }; err?: { code?: string; message?: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });

    beforeAll(async () => {
      disk = SmallDisk.mount(16);
      databasePath = join(disk.folder, 'brand.sqlite');
      t.storage = Object.assign(await openStorage(databasePath), { url: databasePath });
      await t.storage.migrate();
      t.clock = new FixedClock('2026-03-01T09:00:00.000Z');
      blobDir = join(disk.folder, 'blobs');
      imageHost = await startImageServer();
      t.app = buildApp(t.storage, t.clock, {
        logger,
        // 127.0.0.1 is where the test image host listens.
        config: { images: { ...DEFAULT_CONFIG.images, allowedHosts: ['127.0.0.1'], blobDir } },
      });
      t.server = await listenOnLoopback(t.app);
      t.flushRequestLog = () => requestLogOf(t.app).flush();
      shop = await seedOrderingBrand(t, { stock: { 'SOCK-42': INITIAL_STOCK } });
    });

    afterAll(async () => {
      if (t.server) await closeServer(t.server);
      await imageHost?.close();
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

    /** Every file under the blob folder, however deep (temporary files included). */
    const blobFiles = (): string[] =>
      readdirSync(blobDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);

    const syncImage = (name: string) =>
      request(t.server)
        .post('/products/images/sync')
        .set(shop.brand.headers)
        .send({
          product_images: [{ item_number: 'IMG-1', images: [{ url: imageHost.url(`/png/${name}.png`), sort: 1 }] }],
        });

    it('refuses an image sync whose blob the full disk cannot hold with 503 and Retry-After, keeping no image row and no file', async () => {
      const product = await seedProduct(t.storage, t.clock, shop.brand.brandId, 'IMG-1');
      const first = await syncImage('before-full');
      expect(first.status).toBe(200);
      const filesBefore = blobFiles();
      expect(filesBefore).toHaveLength(1);

      const filler = disk.fill();
      const refused = await syncImage('while-full');
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.body.errors).toEqual([expect.objectContaining({ status: 503, code: 'storage_unavailable' })]);
      // The log line names the file system's refusal, not a bug.
      const refusedLine = logged.find((line) => line.req?.id === refused.headers['x-request-id']);
      expect(refusedLine?.err?.code).toBe('ENOSPC');

      // No row for the refused image, no file (whole or partial) for its bytes.
      expect((await storedImages(t.storage, shop.brand.brandId, product.product.id)).map((i) => i.sourceUrl)).toEqual([
        imageHost.url('/png/before-full.png'),
      ]);
      expect(blobFiles()).toEqual(filesBefore);

      // Space comes back: the same sync succeeds without a restart.
      disk.free(filler);
      const after = await syncImage('while-full');
      expect(after.status).toBe(200);
      expect((await storedImages(t.storage, shop.brand.brandId, product.product.id)).map((i) => i.sourceUrl)).toEqual([
        imageHost.url('/png/while-full.png'),
      ]);
      expect(blobFiles()).toHaveLength(2);
      expect(integrityOf(databasePath)).toBe('ok');
    });
  },
);
