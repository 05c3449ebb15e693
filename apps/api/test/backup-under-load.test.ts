/**
 * @slow: starts an API server process, keeps it placing orders and runs `brand backup` as a process beside it; started first (tooling/config/jest-sequencer.js).
 * Runs the built server, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { systemClock } from '@brand/core';
import { openStorage, Storage } from '@brand/persistence-kysely';
import { testDialects } from '@brand/persistence-kysely/testing';
import { createIntegrator, Integrator } from './support/integrator';
import { builtFile, ServerProcess, startServerProcess, stopServerProcess } from './support/server-process';

/**
 * DESIGN §17: `brand backup <file>` copies a SQLite database while it serves writes. A real
 * server takes orders from several concurrent writers; the CLI, a process of its own as an
 * operator runs it, copies the database meanwhile. The copy must be a sound database holding
 * every order the API acknowledged (201) before the backup started. SQLite only: Postgres's
 * backups are `pg_dump`'s (the CLI's refusal is tested in cli/backup-command.test.ts).
 */

const CLI = join(__dirname, '..', 'dist', 'cli', 'main.js');
const SIZES = ['S', 'M', 'L'];
/** Enough catalog that the copy is more than a few pages, and stock that never runs out. */
const PRODUCTS = 2_000;
const WRITERS = 6;

type Body = Record<string, unknown>;

async function post(
  baseUrl: string,
  who: Integrator,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { ...who.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function ok(baseUrl: string, who: Integrator, path: string, body: unknown): Promise<Body> {
  const answer = await post(baseUrl, who, path, body);
  if (answer.status >= 300) throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Runs the built CLI as its own process and resolves with its exit code and output. */
function runCliProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtFile(CLI), ...args],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error.code as number | undefined) ?? 1) : 0, stdout, stderr }),
    );
  });
}

for (const dialect of testDialects()) {
  if (dialect !== 'sqlite') continue;
  describe('brand backup while the API takes orders [sqlite]', () => {
    // Room for the server's start (up to 90 s on a busy machine), the catalog and the load.
    jest.setTimeout(300_000);
    let folder: string;
    let url: string;
    let storage: Storage;
    let server: ServerProcess;
    let brand: Integrator;
    let channel: string;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'brand-backup-load-'));
      url = join(folder, 'brand.sqlite');
      storage = await openStorage(url);
      await storage.migrate();
      brand = await createIntegrator(storage, systemClock);
      server = await startServerProcess(url, { RATE_LIMIT_MAX: '1000000' });
      for (let first = 0; first < PRODUCTS; first += 100)
        await ok(server.baseUrl, brand, '/products/sync', {
          products: Array.from({ length: 100 }, (_, i) => ({
            item_number: `P${first + i}`,
            name: `Product ${first + i} with a name long enough to take some room`,
            variants: SIZES.map((size) => ({
              sku: `P${first + i}-${size}`,
              attributes: { size },
              prices: { EUR: { sales_price: 19.99, rec_sales_price: 49.95 } },
              inventory: [{ quantity: 1_000_000 }],
            })),
          })),
        });
      await ok(server.baseUrl, brand, '/customers/sync', {
        customers: [{ customer_number: 'C1', name: 'Customer 1', currency: 'EUR' }],
      });
      const created = await ok(server.baseUrl, brand, '/v10/order-channels', { name: 'Shop', order_type: 'b2b' });
      channel = (created['order_channel'] as Body)['public_id'] as string;
    });
    afterAll(async () => {
      if (server) await stopServerProcess(server);
      await storage?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    it('writes a sound copy holding every order acknowledged before it began, while orders keep coming', async () => {
      /** Each acknowledged order's id with the instant its 201 arrived. */
      const acknowledged: { id: number; at: number }[] = [];
      let stopping = false;
      let placed = 0;
      const writer = async () => {
        while (!stopping) {
          const n = (placed += 1);
          const lines = [0, 1, 2].map((i) => ({ sku: `P${(n * 7 + i * 13) % PRODUCTS}-${SIZES[i]}`, quantity: 1 }));
          const answer = await post(server.baseUrl, brand, `/v10/order-channels/${channel}/orders`, {
            order: { customer_number: 'C1', lines },
          });
          if (answer.status !== 201)
            throw new Error(`an order answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          acknowledged.push({ id: (answer.body['order'] as Body)['id'] as number, at: performance.now() });
        }
      };
      const writers = Promise.all(Array.from({ length: WRITERS }, writer));
      while (acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 20));

      const file = join(folder, 'copy.sqlite');
      const began = performance.now();
      const backup = await runCliProcess(['backup', file, '--json'], { DATABASE_URL: url });
      const ended = performance.now();
      // Orders go on after the copy too: the server never paused.
      const afterBackup = acknowledged.length;
      while (acknowledged.length < afterBackup + 20) await new Promise((resolve) => setTimeout(resolve, 20));
      stopping = true;
      await writers;

      expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(backup.stdout) as { file: string; pages: number; bytes: number; seconds: number };
      const before = acknowledged.filter((order) => order.at < began).map((order) => order.id);
      const during = acknowledged.filter((order) => order.at >= began && order.at <= ended);

      const copy = new BetterSqlite3(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.pragma('foreign_key_check')).toEqual([]);
        const copied = new Set(copy.prepare('select id from orders where brand_id = ?').pluck().all(brand.brandId));
        expect(before.filter((id) => !copied.has(id))).toEqual([]);
        // Every order in the copy is whole: its lines came with it.
        const withoutLines = copy
          .prepare(
            'select id from orders o where brand_id = ? and not exists (select 1 from order_lines l where l.brand_id = o.brand_id and l.order_id = o.id)',
          )
          .pluck()
          .all(brand.brandId);
        expect(withoutLines).toEqual([]);
        // The figures of the closing note.
        process.stdout.write(
          `backup under load: ${before.length} orders acknowledged before, ${during.length} during, ` +
            `${copied.size} in the copy, ${report.pages} pages, ${report.bytes} bytes, ${report.seconds} s ` +
            `(CLI process ${((ended - began) / 1000).toFixed(2)} s), ${acknowledged.length} orders in all\n`,
        );
      } finally {
        copy.close();
      }
      expect(report.file).toBe(file);
      expect(before.length).toBeGreaterThanOrEqual(200);
    });
  });
}
