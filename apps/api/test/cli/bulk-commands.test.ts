import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import {
  BULK_OPERATION_TYPES,
  BulkLineResult,
  listBulkOperations,
  readBulkOperationResults,
  systemClock,
} from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { startBulkRunner } from '../../src/bulk/bulk-runner';
import { imageServicesFrom } from '../../src/infrastructure/image-services';
import { DEFAULT_CONFIG } from '../../src/config';
import { runCli } from '../../src/cli/run-cli';
import { testPasswordHasher } from '../support/test-password-hasher';
import { brand, brandJson, CliTestDatabase, openCliTestDatabase } from './cli-test-support';

/** `brand import` and `brand bulk-status` (DESIGN §16) against a database of each dialect. */

type Body = Record<string, unknown>;

const customerLine = (n: number) =>
  JSON.stringify({ customer_number: `C${n}`, name: `Customer ${n}`, currency: 'EUR' });

for (const dialect of testDialects()) {
  describe(`brand import and bulk-status [${dialect}]`, () => {
    let db: CliTestDatabase;
    let folder: string;

    beforeAll(async () => {
      db = await openCliTestDatabase(dialect);
      folder = mkdtempSync(join(tmpdir(), 'brand-import-'));
    });
    afterAll(async () => {
      await db.close();
      rmSync(folder, { recursive: true, force: true });
    });

    const aBrand = async () =>
      (await brandJson(db.url, 'create-brand', '--name', 'Atelier Nord', '--currency', 'EUR'))['brand_id'] as number;
    const aFile = (name: string, lines: string[]) => {
      const path = join(folder, name);
      writeFileSync(path, `${lines.join('\n')}\n`);
      return path;
    };
    /** The brand's operations as `GET /v10/bulk-operations` lists them. */
    const operationsOf = async (brandId: number) =>
      (await listBulkOperations({ uow: (await db.storage()).uow }, { brandId, query: {}, types: BULK_OPERATION_TYPES }))
        .page.items;
    const reportOf = async (brandId: number, id: number): Promise<BulkLineResult[]> => {
      const { pages } = await readBulkOperationResults(
        { uow: (await db.storage()).uow },
        { brandId, id, pageSize: 100 },
      );
      const all: BulkLineResult[] = [];
      for await (const page of pages) all.push(...page);
      return all;
    };

    it('imports a customers file in chunks, failing the bad lines alone, and answers its outcome as JSON', async () => {
      const brandId = await aBrand();
      const lines = Array.from({ length: 250 }, (_, i) => customerLine(i + 1));
      lines[41] = '{"customer_number": "C42", "name": "no currency"}';
      lines[99] = 'not json at all';
      const file = aFile('customers.jsonl', lines);

      const outcome = await brandJson(db.url, 'import', 'customers.sync', file, '--brand', String(brandId));

      const operation = outcome['bulk_operation'] as Body;
      expect(operation).toEqual({
        id: expect.any(Number),
        type: 'customers.sync',
        status: 'succeeded',
        total_lines: 250,
        processed_lines: 250,
        failed_lines: 2,
        created_at: expect.any(String),
        started_at: expect.any(String),
        finished_at: expect.any(String),
        error: null,
      });
      expect(outcome['lines_per_second']).toEqual(expect.any(Number));
      const storage = await db.storage();
      const stored = await storage.uow.read((repos) =>
        repos.customers.findByNumbers(
          brandId,
          lines.map((_, i) => `C${i + 1}`),
        ),
      );
      expect(stored.map((c) => c.customerNumber).sort()).toEqual(
        lines
          .map((_, i) => `C${i + 1}`)
          .filter((n) => n !== 'C42' && n !== 'C100')
          .sort(),
      );
      const report = await reportOf(brandId, operation['id'] as number);
      expect(report.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
      expect(report.filter((r) => r.status === 'failed').map((r) => r.line)).toEqual([42, 100]);

      // bulk-status finds it by id alone, and within its brand; another brand does not have it.
      const status = await brandJson(db.url, 'bulk-status', String(operation['id']));
      expect(status).toEqual({ brand_id: brandId, bulk_operation: operation });
      const text = await brand(db.url, 'bulk-status', String(operation['id']), '--brand', String(brandId));
      expect(text.stdout).toMatch(
        /^Bulk operation \d+ \(customers\.sync\) of brand \d+: succeeded, 250 of 250 lines done, 2 failed;/,
      );
      const elsewhere = await brand(db.url, 'bulk-status', String(operation['id']), '--brand', String(await aBrand()));
      expect([elsewhere.code, elsewhere.stderr]).toEqual([
        1,
        `error: bulk operation ${operation['id']} was not found\n`,
      ]);
    });

    it('draws a progress bar of lines done, failed, rate and time left on a terminal, and sums up as text', async () => {
      const brandId = await aBrand();
      const file = aFile(
        'more-customers.jsonl',
        Array.from({ length: 300 }, (_, i) => customerLine(1000 + i)),
      );
      let drawn = '';
      // What cli-progress asks of a terminal: that it says it is one, and its width.
      const terminal = Object.assign(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            drawn += chunk.toString();
            done();
          },
        }),
        { isTTY: true, columns: 160 },
      );
      let stdout = '';
      const code = await runCli(
        ['import', 'customers.sync', file, '--brand', String(brandId)],
        { DATABASE_URL: db.url },
        { stdout: (s) => void (stdout += s), stderr: () => undefined, terminal },
        { passwordHasher: testPasswordHasher },
      );
      expect(code).toBe(0);
      expect(drawn).toMatch(/300\/300 lines \| 0 failed \| (\d+|–) lines\/s \| /);
      expect(stdout).toMatch(
        /^Bulk operation \d+ \(customers\.sync\) of brand \d+ succeeded: 300 of 300 lines done, 0 failed, in \d+s/,
      );
    });

    it('with --no-run follows an operation that another runner runs', async () => {
      const storage = await db.storage();
      const runner = startBulkRunner({
        storage,
        clock: systemClock,
        images: imageServicesFrom(DEFAULT_CONFIG.images),
        logger: pino({ level: 'silent' }),
        leaseMs: 60_000,
        idleMs: 50,
      });
      try {
        const brandId = await aBrand();
        const file = aFile('by-others.jsonl', [customerLine(1), customerLine(2)]);
        const outcome = await brandJson(
          db.url,
          'import',
          'customers.sync',
          file,
          '--brand',
          String(brandId),
          '--no-run',
        );
        expect(outcome['bulk_operation']).toMatchObject({ status: 'succeeded', processed_lines: 2, failed_lines: 0 });
      } finally {
        await runner.stop();
      }
    });

    it('refuses an unknown type, an unknown brand, a missing file and an empty file, leaving no operation behind', async () => {
      const brandId = await aBrand();
      const file = aFile('one.jsonl', [customerLine(1)]);

      const unknownType = await brand(db.url, 'import', 'orders.sync', file, '--brand', String(brandId));
      expect(unknownType.code).toBe(1);
      expect(unknownType.stderr).toMatch(
        /<type> must be one of products\.sync, customers\.sync, suppliers\.sync; got 'orders\.sync'/,
      );

      const unknownBrand = await brand(db.url, 'import', 'customers.sync', file, '--brand', '999999');
      expect([unknownBrand.code, unknownBrand.stderr]).toEqual([1, 'error: brand 999999 was not found\n']);

      const missing = await brand(
        db.url,
        'import',
        'customers.sync',
        join(folder, 'nowhere.jsonl'),
        '--brand',
        String(brandId),
      );
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe(`error: cannot read ${join(folder, 'nowhere.jsonl')}: ENOENT\n`);

      const empty = join(folder, 'empty.jsonl');
      writeFileSync(empty, '\n\n');
      const nothing = await brand(db.url, 'import', 'customers.sync', empty, '--brand', String(brandId));
      expect([nothing.code, nothing.stderr]).toEqual([1, `error: ${empty} has no lines: one JSON item per line\n`]);

      // Nothing was queued for the brand.
      expect(await operationsOf(brandId)).toEqual([]);
    });
  });
}
