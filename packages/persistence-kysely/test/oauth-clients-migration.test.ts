import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { connectKysely, Dialect, openStorage, parseDatabaseUrl } from '../src';
import { migrateDatabase, openTestStorage, testDialects } from '../src/testing';
import { describeUnlessOnCitus } from './earlier-release';

/**
 * An empty database for migrating up step by step: a fresh SQLite file, or a Postgres test
 * database emptied (later migrations such as 0017 cannot be undone, so it cannot migrate back down).
 */
async function databaseBeforeClientIds(dialect: Dialect): Promise<{ url: string; close(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'brand-migration-'));
    return { url: join(folder, 'brand.sqlite'), close: async () => rmSync(folder, { recursive: true, force: true }) };
  }
  const storage = await openTestStorage('postgres');
  const db = connectKysely(parseDatabaseUrl(storage.url));
  try {
    await sql`drop schema public cascade`.execute(db);
    await sql`create schema public`.execute(db);
  } finally {
    await db.destroy();
  }
  return { url: storage.url, close: () => storage.close() };
}

for (const dialect of testDialects()) {
  describeUnlessOnCitus(dialect)(`migration 0010-oauth-clients [${dialect}]`, () => {
    it('gives apps made before it a client id each, which finds them afterwards', async () => {
      const database = await databaseBeforeClientIds(dialect);
      const db = connectKysely(parseDatabaseUrl(database.url));
      try {
        await migrateDatabase(db, dialect, '0009-user-passwords');
        await sql`insert into brands (id, name, currency, created_at, updated_at) values (900, 'Old brand', 'EUR', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
          db,
        );
        for (const id of [901, 902])
          await sql`insert into api_apps (id, brand_id, name, app_key_hash, internal_code, created_at) values (${id}, 900, ${`App ${id}`}, 'hash', null, '2026-01-01T00:00:00.000Z')`.execute(
            db,
          );

        await migrateDatabase(db, dialect, '0010-oauth-clients');

        const rows = await db.selectFrom('api_apps').select(['id', 'client_id']).orderBy('id').execute();
        expect(rows.map((r) => Number(r.id))).toEqual([901, 902]);
        for (const row of rows) expect(row.client_id).toMatch(/^app_[A-Za-z0-9_-]{24}$/);
        expect(rows[0]!.client_id).not.toBe(rows[1]!.client_id);
        const storage = await openStorage(database.url);
        try {
          // The repositories read the latest schema (client ids find their brand in brand_lookups).
          await storage.migrate();
          const found = await storage.uow.read((r) => r.apiApps.findByClientId(rows[1]!.client_id));
          expect(found).toMatchObject({ id: 902, brandId: 900, name: 'App 902', clientId: rows[1]!.client_id });
          expect(await storage.uow.read((r) => r.apiApps.findRedirectUris(900, 902))).toEqual([]);
        } finally {
          await storage.close();
        }
      } finally {
        await db.destroy();
        await database.close();
      }
    });
  });
}
