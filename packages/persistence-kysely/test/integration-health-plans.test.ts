import {
  AccessToken,
  FixedClock,
  Order,
  RequestLogEntry,
  WebhookDelivery,
  createApiApp,
  createBrand,
  createUser,
  createWebhookEndpoint,
  issueAccessToken,
  listEvents,
  recordEvents,
} from '@brand/core';
import { FakeSecretHasher } from '@brand/core/testing';
import { CompiledQuery } from 'kysely';
import { connectKysely, Storage } from '../src';
import { testDialects } from '../src/testing';
import { CapturedStatement, openPlanStorage } from './plan-storage';

/**
 * The console's integration health page (DESIGN §17) reads the request log, the export marks and
 * the webhook deliveries, which grow with every request, document and event: every statement it
 * runs must reach its rows through an index, never by reading a whole table or a brand's whole
 * log. Two brands get a month of requests from three apps each, two systems' marks and a pile
 * of deliveries, then ANALYZE, so the planners choose with statistics as a live database has
 * them (SQLite's sqlite_stat1/stat4 too). Postgres is asked with sequential scans made
 * prohibitive, so its plan shows what an index serves rather than what a small table prefers.
 *
 * At scale: `PLAN_TEST_REQUEST_LOG_ROWS=500000` gives each brand half a million requests (a log of
 * a million rows), and then the request log's plans are also asked of Postgres as it plans by
 * itself, sequential scans allowed: at that size the index must win on its own statistics. The
 * suite runs the small log (9,000 rows a brand); docs/operations.md gives the figures at scale.
 */

const T0 = '2026-03-31T12:30:00.000Z';
const SINCE = '2026-03-30T13:00:00.000Z';
const DAYS = 30;
const REQUESTS_PER_BRAND = Number(process.env['PLAN_TEST_REQUEST_LOG_ROWS'] ?? 9_000);
/** From this size a real planner is expected to choose the index of the request log by itself. */
const AT_SCALE = REQUESTS_PER_BRAND >= 100_000;
const HOUR_MS = 3_600_000;

for (const dialect of testDialects()) {
  describe(`Kysely integration health plans [${dialect}]`, () => {
    jest.setTimeout(AT_SCALE ? 1_800_000 : 120_000);
    const captured: CapturedStatement[] = [];
    let close: (() => Promise<void>) | undefined;
    let storage: Storage;
    let raw: ReturnType<typeof connectKysely>;
    let brandId: number;

    beforeAll(async () => {
      ({ storage, raw, close } = await openPlanStorage(dialect, 'integration-health-plan', captured));
      const clock = new FixedClock(T0);
      const deps = { uow: storage.uow, clock, hasher: new FakeSecretHasher() };
      for (const name of ['Planned', 'Neighbour']) {
        const brand = await createBrand(deps, { name, currency: 'EUR' });
        brandId ??= brand.id;
        const user = await createUser(deps, { brandId: brand.id, email: `ops@${name.toLowerCase()}.example`, name });
        const tokens: AccessToken[] = [];
        for (const app of ['ERP', 'Shop', 'WMS']) {
          const made = await createApiApp(deps, { brandId: brand.id, name: app });
          tokens.push((await issueAccessToken(deps, { userId: user.id, appId: made.app.id })).token);
        }
        // A month of requests, spread evenly, newest at T0.
        const total = REQUESTS_PER_BRAND;
        for (let first = 0; first < total; first += 500) {
          const entries = Array.from({ length: Math.min(500, total - first) }, (_, i): RequestLogEntry => {
            const n = first + i;
            const token = tokens[n % tokens.length]!;
            return {
              brandId: brand.id,
              userId: user.id,
              appId: token.appId,
              tokenId: token.id,
              method: n % 4 === 0 ? 'POST' : 'GET',
              path: `/v10/orders/${n}`,
              route: n % 2 === 0 ? '/v10/orders' : '/v10/orders/:id',
              status: n % 17 === 0 ? 500 : n % 11 === 0 ? 404 : 200,
              durationMs: n % 97,
              requestId: `req-${brand.id}-${n}`,
              traceId: null,
              createdAt: new Date(Date.parse(T0) - Math.floor((n * DAYS * 24 * HOUR_MS) / total)).toISOString(),
            };
          });
          await storage.uow.run((tx) => tx.requestLogs.append(entries));
        }
        // Two systems' marks on many orders (document ids need no rows: marks refer by type and id).
        for (const systemId of ['ERP', 'DATEV'])
          for (let first = 1; first <= 2_000; first += 500)
            await storage.uow.run((tx) =>
              tx.exportMarks.mark(
                Array.from({ length: 500 }, (_, i) => ({
                  brandId: brand.id,
                  documentType: 'order' as const,
                  documentId: first + i,
                  systemId,
                  exportedAt: T0,
                  note: null,
                })),
              ),
            );
        // Deliveries to one endpoint, most of them ended, over the month.
        await storage.uow.run((tx) =>
          recordEvents(tx, brand.id, T0, [
            {
              type: 'order.created',
              object: { id: 1, brandId: brand.id, status: 'draft' } as unknown as Order,
              timeline: { note: null, userId: null },
            },
          ]),
        );
        const event = (
          await listEvents(
            { uow: storage.uow },
            { brandId: brand.id, query: { sort: [{ key: 'id', direction: 'DESC' }], limit: '1' } },
          )
        ).page.items[0]!;
        const { endpoint } = await createWebhookEndpoint(deps, {
          brandId: brand.id,
          url: 'https://ops.example/hooks',
          events: ['*'],
        });
        await storage.uow.run(async (tx) => {
          const ids = await tx.ids.next('webhook_deliveries', 3_000);
          await tx.webhookDeliveries.insert(
            ids.map((id, n): WebhookDelivery => {
              const createdAt = new Date(
                Date.parse(T0) - Math.floor((n * DAYS * 24 * HOUR_MS) / ids.length),
              ).toISOString();
              const status = n % 50 === 0 ? 'pending' : n % 7 === 0 ? 'failed' : 'succeeded';
              return {
                id,
                brandId: brand.id,
                endpointId: endpoint.id,
                eventId: event.id,
                eventType: 'order.created',
                status,
                attempts: 1,
                lastStatusCode: null,
                lastError: null,
                nextAttemptAt: status === 'pending' ? createdAt : null,
                createdAt,
                updatedAt: createdAt,
              };
            }),
          );
        });
      }
      await raw.executeQuery(CompiledQuery.raw('analyze'));
    });

    afterAll(async () => {
      await close?.();
    });

    /** The plans of every statement `read` runs, one line per step, statement after statement. */
    async function plansOf(
      read: () => Promise<unknown>,
      postgresScans: 'indexes preferred' | 'as planned' = 'indexes preferred',
    ): Promise<string[]> {
      captured.length = 0;
      await read();
      const statements = captured.filter((c) => /^\s*select /i.test(c.sql));
      expect(statements.length).toBeGreaterThan(0);
      const plans: string[] = [];
      for (const statement of statements) {
        if (dialect === 'sqlite') {
          const plan = await raw.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
          );
          plans.push(plan.rows.map((row) => row.detail).join('\n'));
          continue;
        }
        plans.push(
          await raw.transaction().execute(async (connection) => {
            await connection.executeQuery(CompiledQuery.raw('set local citus.propagate_set_commands = local'));
            if (postgresScans === 'indexes preferred')
              await connection.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
            const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
              CompiledQuery.raw(`explain (costs off) ${statement.sql}`, [...statement.parameters]),
            );
            return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
          }),
        );
      }
      return plans;
    }

    /** SQLite reads `table` only by searching an index for a range (never SCAN, a whole table or index). */
    function expectSqliteSearch(plan: string, table: string, index: RegExp): void {
      const steps = plan.split('\n').filter((step) => new RegExp(`^(SEARCH|SCAN) ${table}\\b`).test(step));
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps)
        expect(step).toMatch(new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX ${index.source}`));
    }

    /** Postgres reads `table` through `index` (on Citus a shard's, named with its id). */
    function expectPostgresIndex(plan: string, table: string, index: string): void {
      // A bitmap scan of the index is as good for a range of a few percent of the rows.
      expect(plan).toMatch(
        new RegExp(`(Index (Only )?Scan (Backward )?using|Bitmap Index Scan on) ${index}(_\\d+)?( on ${table})?`),
      );
      expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}`));
    }

    it("counts and times the last day's requests from the brand's time index, never its whole log", async () => {
      const plans = await plansOf(
        () =>
          storage.uow.read(async (r) => {
            await r.integrationHealth.requestCounts(brandId, SINCE);
            await r.integrationHealth.routeTimings(brandId, SINCE);
          }),
        AT_SCALE ? 'as planned' : 'indexes preferred',
      );
      expect(plans).toHaveLength(2);
      for (const plan of plans) {
        if (dialect === 'sqlite')
          // Either brand-led time index of the log serves the range (0013's, or 0019's of the retention).
          expectSqliteSearch(
            plan,
            'request_logs',
            /request_logs_(brand_time|created_at)_idx \(brand_id=\? AND created_at>\?\)/,
          );
        else {
          expectPostgresIndex(plan, 'request_logs', '(request_logs_brand_time_idx|request_logs_created_at_idx)');
          expect(plan).toMatch(/Index Cond: \(\(brand_id = .*\) AND \(created_at >= .*\)\)/);
        }
      }
    });

    it('finds the exporting systems one index seek at a time', async () => {
      const plans = await plansOf(() => storage.uow.read((r) => r.integrationHealth.exportingSystems(brandId)));
      // One statement per pair found, and one finding none.
      expect(plans).toHaveLength(3);
      for (const plan of plans) {
        if (dialect === 'sqlite')
          expectSqliteSearch(plan, 'document_exports', /document_exports_systems_idx \(brand_id=\?/);
        else expectPostgresIndex(plan, 'document_exports', 'document_exports_systems_idx');
        expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
      }
    });

    it.each([
      // Either brand-and-status index (0003's, or 0023's with created_at) serves the status.
      ['orders', 'order', ['approved'], 'orders_status_idx|orders_status_created_idx|orders_pkey'],
      [
        'accounting_entries',
        'accounting_entry',
        null,
        'accounting_entries_pkey|accounting_entries_brand_id_idx|sqlite_autoindex_accounting_entries_1',
      ],
    ] as const)(
      "counts a system's backlog of %s from the documents' index, probing the marks' key",
      async (table, documentType, statuses, index) => {
        const plans = await plansOf(() =>
          storage.uow.read((r) =>
            r.integrationHealth.exportBacklog(brandId, { documentType, statuses }, 'ERP', 10_001),
          ),
        );
        expect(plans).toHaveLength(2);
        for (const plan of plans) {
          if (dialect === 'sqlite') {
            expectSqliteSearch(plan, table, new RegExp(`(${index}|PRIMARY KEY)`));
            // One seek per document: every column of the probe is bound, the document's id included.
            expectSqliteSearch(
              plan,
              'e',
              /(document_exports_systems_idx|sqlite_autoindex_document_exports_1) \(brand_id=\? AND document_type=\? AND (document_id=\? AND system_id=\?|system_id=\? AND document_id=\?)\)/,
            );
          } else {
            expect(plan).toMatch(new RegExp(`Index (Only )?Scan using (${index})(_\\d+)? on ${table}`));
            expect(plan).toMatch(
              /Index (Only )?Scan using document_exports_(pk|systems_idx)(_\d+)? on document_exports e\s+Index Cond: \([^\n]*document_id = /,
            );
          }
        }
      },
    );

    it("counts the last day's deliveries and finds the pending ones from the deliveries' indexes", async () => {
      const [counts, pending] = await plansOf(() =>
        storage.uow.read(async (r) => {
          await r.integrationHealth.deliveryCounts(brandId, SINCE);
          await r.integrationHealth.pendingDeliveries(brandId);
        }),
      );
      if (dialect === 'sqlite') {
        expectSqliteSearch(
          counts!,
          'webhook_deliveries',
          /webhook_deliveries_created_at_idx \(brand_id=\? AND created_at>\?\)/,
        );
        expectSqliteSearch(pending!, 'webhook_deliveries', /webhook_deliveries_(due|endpoint)_idx \(brand_id=\?/);
      } else {
        expectPostgresIndex(counts!, 'webhook_deliveries', 'webhook_deliveries_created_at_idx');
        expectPostgresIndex(pending!, 'webhook_deliveries', 'webhook_deliveries_due_idx');
      }
    });
  });
}
