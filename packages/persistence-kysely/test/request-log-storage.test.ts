import { FixedClock, RequestLogEntry, createApiApp, createBrand, createUser, issueAccessToken } from '@brand/core';
import { FakeSecretHasher } from '@brand/core/testing';
import { LogEvent } from 'kysely';
import { openTestStorage, Storage, testDialects } from '../src';

// How the adapter writes the request log: flushes of a size that changes every time.
for (const dialect of testDialects()) {
  describe(`Kysely request log storage [${dialect}]`, () => {
    let storage: (Storage & { url: string }) | undefined;
    const inserts: string[] = [];

    beforeAll(async () => {
      storage = await openTestStorage(dialect, {
        log: (event: LogEvent) => {
          if (event.level === 'query' && event.query.sql.startsWith('insert into "request_logs"'))
            inserts.push(event.query.sql);
        },
      });
    });

    afterAll(async () => {
      await storage?.close();
    });

    it('writes flushes of any size in statements whose texts repeat on SQLite, and reads every entry back', async () => {
      const deps = { uow: storage!.uow, clock: new FixedClock(), hasher: new FakeSecretHasher() };
      const brand = await createBrand(deps, { name: 'Log brand', currency: 'EUR' });
      const user = await createUser(deps, { brandId: brand.id, email: 'log@example.com', name: 'Log' });
      const { app } = await createApiApp(deps, { brandId: brand.id, name: 'Log app' });
      const { token } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
      const entries = (count: number, first: number): RequestLogEntry[] =>
        Array.from({ length: count }, (_, i) => ({
          brandId: brand.id,
          userId: user.id,
          appId: app.id,
          tokenId: token.id,
          method: 'GET',
          path: `/v10/customers/${first + i}`,
          status: 200,
          durationMs: 1,
          requestId: `request-${first + i}`,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, first + i)).toISOString(),
        }));

      await storage!.uow.run((tx) => tx.requestLogs.append(entries(300, 0)));
      await storage!.uow.run((tx) => tx.requestLogs.append(entries(301, 300)));

      const rowsPerStatement = inserts.map((text) => text.split('), (').length);
      if (dialect === 'sqlite') expect(rowsPerStatement).toEqual([256, 32, 8, 4, 256, 32, 8, 4, 1]);
      else expect(rowsPerStatement).toEqual([300, 301]);
      const stored = await storage!.uow.read((r) => r.requestLogs.listForUser(brand.id, user.id, 1000));
      expect(stored).toHaveLength(601);
      expect(new Set(stored.map((entry) => entry.requestId)).size).toBe(601);
    });
  });
}
