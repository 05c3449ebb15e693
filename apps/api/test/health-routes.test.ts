import request from 'supertest';
import { Storage } from '@brand/persistence-kysely';
import { openTestStorage, testDialects } from '@brand/persistence-kysely/testing';
import { openApiDocumentOf, requestLogOf } from '../src/app';
import { buildApp, useTestApp } from './support/test-app';

for (const dialect of testDialects()) {
  describe(`liveness and readiness [${dialect}]`, () => {
    const t = useTestApp(dialect);

    /** An app over the test database whose storage answers readiness's questions as given. */
    const appWith = (overrides: Partial<Storage>) => buildApp({ ...t.storage, ...overrides }, t.clock);

    it('answers /health/live and /health/ready with ok while the database answers and is migrated', async () => {
      for (const path of ['/health/live', '/health/ready']) {
        const response = await request(t.server).get(path);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ status: 'ok' });
      }
    });

    it('answers /health while a transaction holds the connection, and 503 once the database is closed', async () => {
      // A transaction that waits between its statements (as a group of orders does for the next
      // one): on SQLite it holds the one connection until it commits.
      let finish!: () => void;
      const held = new Promise<void>((resolve) => (finish = resolve));
      let inside!: () => void;
      const entered = new Promise<void>((resolve) => (inside = resolve));
      const transaction = t.storage.uow.run(async (tx) => {
        await tx.brands.findById(1);
        inside();
        await held;
      });
      await entered;
      // Queued behind the transaction, the probe would never answer: the timeout says so.
      const probe = await Promise.resolve(request(t.server).get('/health').timeout(10_000)).finally(finish);
      await transaction;
      expect(probe.status).toBe(200);
      expect(probe.body).toEqual({ status: 'ok' });

      const closed = await openTestStorage(dialect);
      await closed.close();
      const down = await request(buildApp(closed, t.clock)).get('/health');
      expect(down.status).toBe(503);
      expect(down.body.errors[0]).toMatchObject({ status: 503, code: 'storage_unavailable' });
    });

    it('answers ready 503 storage_unavailable with Retry-After when the database fails, while live stays 200', async () => {
      const down = appWith({
        ping: async () => false,
        pendingMigrations: () => Promise.reject(new Error('connection refused')),
      });
      const ready = await request(down).get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.body.errors[0]).toMatchObject({ status: 503, code: 'storage_unavailable' });
      expect((await request(down).get('/health/live')).status).toBe(200);
      await requestLogOf(down).flush();
    });

    it('answers ready 503 while a migration of this build has not run', async () => {
      const behind = appWith({ pendingMigrations: async () => ['9999-next'] });
      expect((await request(behind).get('/health/ready')).status).toBe(503);
      await requestLogOf(behind).flush();
    });

    it('answers ready 503 within about 2 s when the database hangs, and asks it only once meanwhile', async () => {
      let asked = 0;
      const hanging = appWith({
        pendingMigrations: () => {
          asked += 1;
          return new Promise<string[]>(() => {});
        },
      });
      const startedAt = Date.now();
      const [first, second] = await Promise.all([
        request(hanging).get('/health/ready'),
        request(hanging).get('/health/ready'),
      ]);
      const tookMs = Date.now() - startedAt;
      expect([first.status, second.status]).toEqual([503, 503]);
      // The 2 s deadline, not a hang: only the lower bound is the machine's to keep (a busy CI
      // host delays the answer past 2 s; the upper bound only tells a deadline from no deadline).
      expect(tookMs).toBeGreaterThanOrEqual(1_900);
      expect(tookMs).toBeLessThan(20_000);
      expect(asked).toBe(1);
      await requestLogOf(hanging).flush();
    });

    it('answers every health route in maintenance', async () => {
      const maintained = buildApp(t.storage, t.clock, { config: { maintenanceMode: true } });
      for (const path of ['/health', '/health/live', '/health/ready'])
        expect((await request(maintained).get(path)).status).toBe(200);
      await requestLogOf(maintained).flush();
    });

    it('documents both routes, open to anyone', () => {
      const paths = openApiDocumentOf(t.app)['paths'] as Record<string, { get: { security?: unknown[] } }>;
      for (const path of ['/health/live', '/health/ready']) {
        expect(paths[path]?.get).toBeDefined();
        expect(paths[path]?.get.security).toEqual([]);
      }
    });
  });
}
