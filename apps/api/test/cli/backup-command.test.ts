import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { systemClock } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { createIntegrator } from '../support/integrator';
import { brand, brandJson, CliTestDatabase, openCliTestDatabase } from './cli-test-support';

for (const dialect of testDialects()) {
  describe(`brand backup [${dialect}]`, () => {
    let db: CliTestDatabase;
    let folder: string;

    beforeAll(async () => {
      db = await openCliTestDatabase(dialect);
      folder = mkdtempSync(join(tmpdir(), 'brand-backup-'));
    });
    afterAll(async () => {
      await db.close();
      rmSync(folder, { recursive: true, force: true });
    });

    if (dialect === 'postgres') {
      it('refuses Postgres and names the pg_dump command, writing nothing', async () => {
        const file = join(folder, 'copy.sqlite');
        const run = await brand(db.url, 'backup', file);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/back up Postgres with pg_dump/);
        expect(run.stderr).toMatch(/pg_dump --format=custom --file=brand\.dump /);
        expect(run.stdout).toBe('');
        expect(readdirSync(folder)).toEqual([]);
      });
      return;
    }

    it('copies the database to a new file that holds its rows and passes the integrity check', async () => {
      const integrator = await createIntegrator(await db.storage(), systemClock, { brandName: 'Backed up' });
      const file = join(folder, 'copy.sqlite');
      const copy = await brandJson(db.url, 'backup', file);
      expect(copy).toEqual({ file, pages: expect.any(Number), bytes: expect.any(Number), seconds: expect.any(Number) });
      expect(copy.pages as number).toBeGreaterThan(10);
      expect(copy.bytes).toBeGreaterThanOrEqual((copy.pages as number) * 512);
      // Only the copy: the temporary name it was written under is gone.
      expect(readdirSync(folder)).toEqual(['copy.sqlite']);

      const copied = new BetterSqlite3(file, { readonly: true });
      try {
        expect(copied.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copied.prepare('select name from brands where id = ?').pluck().get(integrator.brandId)).toBe(
          'Backed up',
        );
      } finally {
        copied.close();
      }
    });

    it('says what it copied as text', async () => {
      const run = await brand(db.url, 'backup', join(folder, 'text.sqlite'));
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Backed up \d+ pages \(\d+\.\d MB\) to .*text\.sqlite in \d+\.\d\ds\.\n$/);
    });

    it('refuses to replace an existing file, leaving it as it was', async () => {
      const file = join(folder, 'taken.sqlite');
      writeFileSync(file, 'not a database');
      const run = await brand(db.url, 'backup', file);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/taken\.sqlite already exists: a backup never replaces a file/);
      expect(readdirSync(folder).filter((name) => name.startsWith('taken'))).toEqual(['taken.sqlite']);
    });

    it('refuses a folder that does not exist', async () => {
      const run = await brand(db.url, 'backup', join(folder, 'missing', 'copy.sqlite'));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/missing does not exist: create the backup's folder first/);
      expect(existsSync(join(folder, 'missing'))).toBe(false);
    });

    it('refuses an in-memory database, which no other process sees', async () => {
      const run = await brand(':memory:', 'backup', join(folder, 'memory.sqlite'));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/backup needs a database file/);
    });

    it('is a usage error without a file', async () => {
      const run = await brand(db.url, 'backup');
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/missing required argument 'file'/);
    });
  });
}
