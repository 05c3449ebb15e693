import { FixedClock, ListQuery, createBrand, orderListDefinition, runList } from '@brand/core';
import { CompiledQuery, Kysely, sql } from 'kysely';
import { Database, Storage } from '../src';
import { testDialects } from '../src/testing';
import { CapturedStatement, openPlanStorage } from './plan-storage';

/**
 * The orders list filtered by a status and a `created_at` range (an ERP's "approved yesterday")
 * must read one range of `(brand_id, status, created_at)` (migration 0023), for its page and for
 * its total, and not every order of the status, whose number grows with the brand. SQLite is
 * asked without statistics, as production runs it (no ANALYZE); Postgres with a hundred days of
 * orders analysed and sequential scans made prohibitive, so its plan shows which index it prefers.
 * On Postgres the page picks its ids from the range alone, without visiting a row (0024's index
 * carries them), and reads its rows by key: a range read costs little enough per entry that
 * statistics of every brand at once, which overstate one brand's matches when other brands crowd
 * the days asked for, less often tip Postgres into walking every order of the status instead
 * (docs/performance.md, "The filtered list's tail"). With a bounded range (a day) it reads the
 * range whole and sorts it, even where the statistics promise many matches early in id order:
 * planned for its values, Postgres otherwise walked every order of the status testing each
 * (docs/performance.md, "Production size on Postgres, run 5").
 */
const T0 = '2026-04-30T12:00:00.000Z';
const DAYS = 100;
const ORDERS = 6_000;
const FROM = '2026-04-10T00:00:00.000Z';
const TO = '2026-04-10T23:59:59.999Z';
/** The brand's oldest day, whose orders come last in id order (the generator numbers back in time). */
const OLDEST_DAY = '2026-01-21T06:00:00.000Z';
const CROWD = 30_000;

/** A captured statement's plan on Postgres, under one setting for its transaction. */
async function explainOnPostgres(
  raw: Kysely<Database>,
  statement: CapturedStatement,
  setting: string,
): Promise<string> {
  return raw.transaction().execute(async (connection) => {
    await connection.executeQuery(CompiledQuery.raw('set local citus.propagate_set_commands = local'));
    await connection.executeQuery(CompiledQuery.raw(setting));
    const explained = await connection.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain (costs off) ${statement.sql}`, [...statement.parameters]),
    );
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

for (const dialect of testDialects()) {
  describe(`the filtered orders list's plan [${dialect}]`, () => {
    jest.setTimeout(120_000);
    const captured: CapturedStatement[] = [];
    let close: (() => Promise<void>) | undefined;
    let storage: Storage;
    let raw: Kysely<Database>;
    let brandId: number;

    beforeAll(async () => {
      ({ storage, raw, close } = await openPlanStorage(dialect, 'orders-list-plan', captured));
      brandId = (
        await createBrand({ uow: storage.uow, clock: new FixedClock(T0) }, { name: 'Planned', currency: 'EUR' })
      ).id;
      if (dialect === 'postgres') {
        // Orders alone, as the superuser: their customer and channel need no rows for a plan.
        await raw.connection().execute(async (connection) => {
          await sql`set session_replication_role = replica`.execute(connection);
          await sql`insert into orders (id, brand_id, order_number, status, order_type, order_channel_id,
              customer_id, customer_number, currency, vat_rate_basis_points, prices_include_vat, order_meta,
              net_total, vat_total, total, created_at, updated_at)
            select 1000000 + s.i, ${brandId}::bigint, s.i,
              (array['draft', 'approved', 'shipped', 'cancelled'])[1 + s.i % 4], 'b2b', 1, 1, 'C-1', 'EUR', 0, 0,
              '{}', 0, 0, 0,
              to_char((${T0}::timestamptz - s.i * ${sql.lit((DAYS * 86_400) / ORDERS)} * interval '1 second')
                at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ${T0}
            from generate_series(1, ${sql.lit(ORDERS)}) as s(i)`.execute(connection);
          // Another brand's orders crowding the brand's oldest day: the statistics of every brand at
          // once then promise many of the brand's orders on that day.
          await sql`insert into orders (id, brand_id, order_number, status, order_type, order_channel_id,
              customer_id, customer_number, currency, vat_rate_basis_points, prices_include_vat, order_meta,
              net_total, vat_total, total, created_at, updated_at)
            select 2000000 + s.i, ${brandId + 1}::bigint, s.i, 'shipped', 'b2b', 1, 1, 'C-1', 'EUR', 0, 0,
              '{}', 0, 0, 0, ${OLDEST_DAY}, ${T0}
            from generate_series(1, ${sql.lit(CROWD)}) as s(i)`.execute(connection);
          await sql`set session_replication_role = origin`.execute(connection);
        });
        // VACUUM too: the visibility map a database kept by autovacuum has, which index-only reads need.
        await sql`vacuum analyze orders`.execute(raw);
      }
    });

    afterAll(async () => {
      await close?.();
    });

    it('reads the page and its total from one range of (brand_id, status, created_at)', async () => {
      captured.length = 0;
      await storage.uow.read((r) =>
        runList(
          orderListDefinition,
          {
            brandId,
            query: {
              limit: '100',
              filter_groups: [
                { filters: [{ key: 'status', operator: 'eq', value: 'shipped' }] },
                { filters: [{ key: 'created_at', operator: 'bt', value: [FROM, TO] }] },
              ],
            },
          },
          (q: ListQuery) => r.orders.list(brandId, q),
        ),
      );
      const page = captured.find((c) => /^\s*select /i.test(c.sql) && c.sql.includes('"orders"'))!;
      expect(page.sql).toMatch(/count\(\*\)/);
      if (dialect === 'sqlite') {
        const plan = (
          await raw.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${page.sql}`, [...page.parameters]),
          )
        ).rows.map((row) => row.detail);
        // The page and the count's subquery: each a search of the range, never of the status alone.
        const reads = plan.filter((step) => /^(SEARCH|SCAN) orders\b/.test(step));
        expect(reads).toHaveLength(2);
        for (const step of reads)
          expect(step).toMatch(
            /^SEARCH orders USING (COVERING )?INDEX orders_status_created_idx \(brand_id=\? AND status=\? AND created_at>\? AND created_at<\?\)/,
          );
        return;
      }
      const plan = await explainOnPostgres(raw, page, 'set local enable_seqscan = off');
      // The total and the page's ids: index-only reads of the range; then the page's rows by key.
      const reads = plan.match(/(Index (Only )?Scan (Backward )?using|Bitmap Index Scan on) \S+/g) ?? [];
      const ranges = reads.filter((read) => /orders_status_created_idx(_\d+)?$/.test(read));
      expect(ranges).toEqual([
        expect.stringMatching(/^Index Only Scan using/),
        expect.stringMatching(/^Index Only Scan using/),
      ]);
      expect(reads.filter((read) => !ranges.includes(read))).toEqual([
        expect.stringMatching(/^Index Scan using orders_pkey(_\d+)?$/),
      ]);
      expect(plan).not.toMatch(/Seq Scan on orders/);
    });

    // Postgres only: its planner weighs statistics; SQLite, without them, has the range index alone.
    (dialect === 'postgres' ? it : it.skip)(
      'reads a day at the end of the page order from its range, with other brands crowding that day',
      async () => {
        captured.length = 0;
        const { page } = await storage.uow.read((r) =>
          runList(
            orderListDefinition,
            {
              brandId,
              query: {
                limit: '10',
                filter_groups: [
                  { filters: [{ key: 'status', operator: 'eq', value: 'shipped' }] },
                  {
                    filters: [
                      {
                        key: 'created_at',
                        operator: 'bt',
                        value: ['2026-01-21T00:00:00.000Z', '2026-01-21T23:59:59.999Z'],
                      },
                    ],
                  },
                ],
              },
            },
            (q: ListQuery) => r.orders.list(brandId, q),
          ),
        );
        const statement = captured.find((c) => /^\s*select /i.test(c.sql) && c.sql.includes('"orders"'))!;
        // The plan a connection's first executions get: planned for these values.
        const plan = await explainOnPostgres(raw, statement, 'set local plan_cache_mode = force_custom_plan');
        expect(page.items).toHaveLength(10);
        expect(page.hasMore).toBe(true);
        for (const order of page.items)
          expect([order.status, order.createdAt.slice(0, 10)]).toEqual(['shipped', '2026-01-21']);
        // Never a walk of every order of the status in id order, testing each against the day: the
        // page's keys are sorted after the range is read, by whichever index the planner reads it
        // with (that choice follows sampled statistics, so it is not what this checks).
        expect(plan).toMatch(/Limit\n\s*->\s+Sort\n/);
        expect(plan).not.toMatch(/Limit\n\s*->\s+Index (Only )?Scan using orders_status_idx/);
      },
    );
  });
}
