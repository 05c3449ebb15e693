import {
  BrandRequestLogQuery,
  FixedClock,
  RequestLogEntry,
  createApiApp,
  createBrand,
  createUser,
  issueAccessToken,
} from '@brand/core';
import { FakeSecretHasher } from '@brand/core/testing';
import { CompiledQuery, LogEvent } from 'kysely';
import { connectKysely, Storage } from '../src';
import { openTestStorage, testDialects } from '../src/testing';
import { CapturedStatement, openPlanStorage } from './plan-storage';

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
          route: null,
          status: 200,
          durationMs: 1,
          requestId: `request-${first + i}`,
          traceId: null,
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

// The console reads a brand's log newest first, a page at a time, optionally of one app or of
// failures: every shape must walk an index of migration 0013 in that order, whatever the log's
// size (never a scan of the table or a sort of the brand's rows). SQLite plans without statistics,
// so its plan is fixed by the schema; Postgres is asked with scans and sorts made prohibitive, so
// the plan shows what an index can serve rather than what today's statistics prefer.
for (const dialect of testDialects()) {
  describe(`Kysely request log plans [${dialect}]`, () => {
    const captured: CapturedStatement[] = [];
    let close: (() => Promise<void>) | undefined;
    let storage: Storage | undefined;
    let raw: ReturnType<typeof connectKysely> | undefined;

    beforeAll(async () => {
      ({ storage, raw, close } = await openPlanStorage(dialect, 'request-log-plan', captured));
    });

    afterAll(async () => {
      await close?.();
    });

    /** The plan of the statement `listForBrand` ran for `query`, one line per step. */
    async function planOf(query: Partial<BrandRequestLogQuery>): Promise<string> {
      captured.length = 0;
      await storage!.uow.read((r) =>
        r.requestLogs.listForBrand({ brandId: 1, appId: null, status: null, before: null, limit: 51, ...query }),
      );
      const page = captured.find((c) => c.sql.includes('from "request_logs"'))!;
      if (dialect === 'sqlite') {
        const plan = await raw!.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${page.sql}`, [...page.parameters]),
        );
        return plan.rows.map((row) => row.detail).join('\n');
      }
      return raw!.transaction().execute(async (connection) => {
        // SET LOCAL, handed on to the workers on Citus, whose shards plan the statement there.
        await connection.executeQuery(CompiledQuery.raw('set local citus.propagate_set_commands = local'));
        for (const knob of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
          await connection.executeQuery(CompiledQuery.raw(`set local ${knob} = off`));
        const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain (costs off) ${page.sql}`, [...page.parameters]),
        );
        return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    }

    const before = { createdAt: '2026-03-01T09:00:00.000Z', id: 900 };
    const failures = { min: 400, max: 599 };
    it.each([
      ['the newest page', {}, 'request_logs_brand_time_idx'],
      ['an older page', { before }, 'request_logs_brand_time_idx'],
      ['one app', { appId: 2, before }, 'request_logs_brand_app_time_idx'],
      ['the failures', { status: failures, before }, 'request_logs_brand_failures_idx'],
      ['the 5xx', { status: { min: 500, max: 599 } }, 'request_logs_brand_failures_idx'],
      ['the 2xx', { status: { min: 200, max: 299 }, before }, 'request_logs_brand_time_idx'],
    ] satisfies [string, Partial<BrandRequestLogQuery>, string][])(
      "walks a brand's log in page order for %s",
      async (_shape, query, index) => {
        const plan = await planOf(query);
        if (dialect === 'sqlite') {
          expect(plan).toMatch(new RegExp(`SEARCH request_logs USING INDEX ${index} \\(brand_id=\\?`));
          expect(plan).not.toMatch(/TEMP B-TREE|SCAN request_logs/);
        } else {
          // On Citus the plan is a shard's, whose index and table names end in the shard's id.
          expect(plan).toMatch(new RegExp(`Index Scan Backward using ${index}(_\\d+)? on request_logs`));
          expect(plan).not.toMatch(/Sort|Seq Scan/);
        }
      },
    );
  });
}
