/**
 * Issue 37 benchmark, item 3 (production size): does a request get slower as the database
 * grows to a production's size? production-data.ts generates, per dialect, 20 brands with
 * 1,000,000 orders in total (3 lines each; half approved, shipped, delivered and invoiced),
 * 100,000 products × 5 variants, 200,000 customers, 2,000,000 events and 1,000,000 request-log
 * rows, times BENCH_SCALE (a comma list, default `0.01,1`: 1 % and the full size). The first brand
 * holds 60 % of it, and is the one measured. Both sizes are generated first and each gets its
 * real server (`dist/server.js`, one process); then BENCH_ROUNDS rounds (default 8) measure every
 * case at both sizes, for BENCH_SECONDS each (default 4) after a 1-second warm-up, at 8
 * connections, the sizes' order alternating from round to round:
 *   orders first page    GET /v10/orders?limit=100 (page 0, with its total)
 *   orders deep cursor   the page 500,000 × scale orders deep, by the signed cursor the API gives
 *   orders filtered      status = the shipped orders' and created_at in one fixed day
 *   order by id          GET /v10/orders/:id of an order that deep
 *   orders export        GET /v10/orders/export?system_id=ERP&limit=100
 *   events first page    GET /v10/events?limit=100 (page 0, with its total)
 *   events poll          GET /v10/events?limit=100&starting_after=<an event a day old>
 *   console requests     GET /console/requests (the request log page, logged in by the form)
 *   order creation       POST /v10/order-channels/:publicId/orders, 3 lines (the spec's route)
 * p50 and p99 of each window (from every response's own time), and each server's peak RSS.
 * Target: every p99 at full size ≤ 1.3 × its p99 at 1 %, and a flat RSS. The ratio of record is
 * the median over the rounds of the round's ratio: between two windows of the same case on the
 * same data, the p99 moves by more than the target allows (docs/performance.md, stop 55), so one
 * window per size cannot tell 1.3 from noise. Then the plan check: the same requests once more
 * through the app in this process, on a storage whose query log captures every statement; each
 * select is EXPLAINed (Postgres as it plans by itself) and reported with whether every table it
 * reads is reached through an index.
 *
 * The data is generated once per dialect and scale, into a SQLite file in the temporary folder or
 * a database of the throwaway Postgres (tooling/scripts/with-postgres.sh, unless TEST_POSTGRES_URL
 * is set; the bulk SQL runs as the server's superuser). BENCH_DIALECTS=sqlite or =postgres runs
 * one dialect (both by default). BENCH_SKIP_LOAD=1 generates and checks plans only. The runs of
 * record give the throwaway Postgres a production server's memory settings, as its default
 * buffer cache is sized for a small database, not for this one:
 *   POSTGRES_EXTRA_CONF=$'shared_buffers = 2GB\neffective_cache_size = 8GB' BENCH_DIALECTS=postgres pnpm bench production-size
 * Results: docs/performance.md, "Production size (issue 37)" and the runs after it. In short:
 * since the kept totals (0023), the status-and-date index, the filtered page's ids read from it
 * first on Postgres (0024) and a bounded range read whole before sorting, every case keeps its
 * p99 at full size within 1.3 on both dialects in two runs each; every list statement's plan
 * reaches its tables through an index; the server's peak RSS is flat.
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { CompiledQuery, LogEvent } from 'kysely';
import { systemClock } from '@brand/core';
import { connectKysely, openStorage, parseDatabaseUrl } from '@brand/persistence-kysely';
import { inspectionUrl, openTestStorage } from '@brand/persistence-kysely/testing';
import { createApp, loadConfig, nodeSecretHasher, requestLogOf } from '@brand/api';
import {
  Measurement,
  RunningApi,
  measure,
  median,
  peakRssMb,
  randomOrder,
  runOnPostgres,
  saveResults,
  startApiProcesses,
  stopApiProcesses,
  tempDatabasePath,
} from './harness';
import { Dialect, Generated, PASSWORD, generateProductionData, productionSize } from './production-data';

const SCALES = (process.env.BENCH_SCALE ?? '0.01,1').split(',').map(Number);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(/[,|]/).map((d) => d.trim()) as Dialect[];
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 8));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 8;
const SKIP_LOAD = process.env.BENCH_SKIP_LOAD === '1';
const DAY = 86_400;

type Headers = Record<string, string>;

async function getJson(url: string, headers: Headers): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Logs in to the console by its form as a browser does; returns the session's cookie header. */
async function consoleCookie(baseUrl: string, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const page = await fetch(`${baseUrl}/console/login`);
  keep(page);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrf) throw new Error('no CSRF token on the login page');
  const login = await fetch(`${baseUrl}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
    body: new URLSearchParams({ csrf_token: csrf, email, password: PASSWORD }).toString(),
  });
  keep(login);
  if (login.status !== 303) throw new Error(`the console login answered ${login.status}`);
  return cookie();
}

/** One filter of the first group in the API's bracket notation; two values make an array (`bt`, `in`). */
function filter(n: number, key: string, operator: string, values: string[]): string {
  const at = `filter_groups[0][filters][${n}]`;
  const value =
    values.length === 1
      ? `${at}[value]=${encodeURIComponent(values[0]!)}`
      : values.map((v) => `${at}[value][]=${encodeURIComponent(v)}`).join('&');
  return `${at}[key]=${key}&${at}[operator]=${operator}&${value}`;
}

interface Case {
  name: string;
  path: string;
  /** Headers other than the integration's (the console's cookie). */
  headers?: Headers;
  post?: () => string;
}

/** The cases' requests against the generated data of the first brand (see the header). */
async function casesOf(writerUrl: string, generated: Generated & { scale: number }, baseUrl: string): Promise<Case[]> {
  const brand = generated.brands[0]!;
  const db = connectKysely(parseDatabaseUrl(writerUrl));
  try {
    const depth = Math.round(500_000 * generated.scale);
    const row = async (text: string) =>
      (await db.executeQuery<Record<string, string | number>>(CompiledQuery.raw(text))).rows[0] ?? {};
    const deep = await row(
      `select id from orders where brand_id = ${brand.brandId} order by id limit 1 offset ${depth}`,
    );
    const shipped = await row(
      `select status from orders where brand_id = ${brand.brandId} and id = (select max(order_id) from shipments where brand_id = ${brand.brandId})`,
    );
    const dayOld = await row(
      `select max(id) as id from events where brand_id = ${brand.brandId} and created_at < '${new Date(Date.now() - DAY * 1000).toISOString()}'`,
    );
    const cursorPage = await getJson(`${baseUrl}/v10/orders?limit=100&starting_after=${deep['id']}`, brand.headers);
    const cursor = cursorPage['next_cursor'] as string | undefined;
    if (!cursor) throw new Error(`no deep cursor at order ${deep['id']}: ${JSON.stringify(cursorPage).slice(0, 300)}`);
    const from = new Date(Date.now() - 2 * DAY * 1000).toISOString();
    const to = new Date(Date.now() - DAY * 1000).toISOString();
    const cookie = await consoleCookie(baseUrl, brand.email);
    const shop = { variants: brand.products * 5, customers: brand.customers, stockPerVariant: 0 };
    const cases: Case[] = [
      { name: 'orders first page', path: '/v10/orders?limit=100' },
      { name: 'orders deep cursor', path: `/v10/orders?limit=100&cursor=${encodeURIComponent(cursor)}` },
      {
        name: 'orders filtered',
        path: `/v10/orders?limit=100&${filter(0, 'status', 'eq', [String(shipped['status'])])}&${filter(1, 'created_at', 'bt', [from, to])}`,
      },
      { name: 'order by id', path: `/v10/orders/${deep['id']}` },
      { name: 'orders export', path: '/v10/orders/export?system_id=ERP&limit=100' },
      { name: 'events first page', path: '/v10/events?limit=100' },
      { name: 'events poll', path: `/v10/events?limit=100&starting_after=${dayOld['id']}` },
      { name: 'console requests', path: '/console/requests', headers: { cookie } },
      {
        name: 'order creation',
        path: `/v10/order-channels/${brand.channelPublicId}/orders`,
        post: () => randomOrder(shop),
      },
    ];
    return cases;
  } finally {
    await db.destroy();
  }
}

/** The generated data through the API: lists answer, an order has its lines, the feed pages. */
async function verify(baseUrl: string, generated: Generated): Promise<void> {
  for (const brand of [generated.brands[0]!, generated.brands[generated.brands.length - 1]!]) {
    const h = brand.headers;
    const orders = await getJson(`${baseUrl}/v10/orders?limit=5`, h);
    const total = orders['total'] as number;
    if (total < brand.orders) throw new Error(`brand ${brand.brandId} lists ${total} orders of ${brand.orders}`);
    const last = (orders['orders'] as { id: number }[])[0]!;
    const one = (await getJson(`${baseUrl}/v10/orders/${last.id}`, h))['order'] as { lines?: unknown[] };
    if (one.lines?.length !== 3) throw new Error(`order ${last.id} has ${one.lines?.length} lines`);
    for (const path of [
      '/v10/customers?limit=5',
      '/v10/products?limit=5',
      '/v10/shipments?limit=5',
      '/v10/invoices?limit=5',
    ]) {
      const page = await getJson(`${baseUrl}${path}`, h);
      if (!(Number(page['total']) > 0)) throw new Error(`${path} of brand ${brand.brandId} is empty`);
    }
    const first = await getJson(`${baseUrl}/v10/events?limit=100`, h);
    const events = first['events'] as { id: string }[];
    const next = await getJson(`${baseUrl}/v10/events?limit=100&starting_after=${events[events.length - 1]!.id}`, h);
    if (events.length !== 100 || (next['events'] as unknown[]).length === 0)
      throw new Error(`the events feed of brand ${brand.brandId} does not page`);
  }
}

interface CaseResult extends Measurement {
  status: number;
}

/** One window of one case against one size's server (a probe first: it must answer 2xx). */
async function measureCase(api: RunningApi, brandHeaders: Headers, c: Case): Promise<CaseResult> {
  const headers = c.headers ?? brandHeaders;
  const probe = await fetch(`${api.baseUrl}${c.path}`, {
    method: c.post ? 'POST' : 'GET',
    headers,
    ...(c.post ? { body: c.post() } : {}),
  });
  await probe.arrayBuffer();
  if (!probe.ok) throw new Error(`${c.name} answered ${probe.status}`);
  const m = await measure(c.name, `${api.baseUrl}${c.path}`, headers, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    exactLatencies: true,
    ...(c.post ? { requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: c.post!() }) }] } : {}),
  });
  return { ...m, status: probe.status };
}

/**
 * The rounds: in each, every case at every size, the sizes' order alternating from one round to the
 * next, so whatever the shared machine does in a minute lands on both sizes alike. The reads' rounds
 * come first and order creation's after them, so the reads measure the generated data, not data
 * grown by the orders measured (the request log still grows by every request, at both sizes).
 * Returns each size's windows by round.
 */
async function measureInRounds(sizes: PreparedSize[]): Promise<CaseResult[][][]> {
  const bySize: CaseResult[][][] = sizes.map(() => Array.from({ length: ROUNDS }, () => []));
  const cases = sizes[0]!.cases.map((c, index) => ({ index, writes: Boolean(c.post) }));
  for (const phase of [cases.filter((c) => !c.writes), cases.filter((c) => c.writes)]) {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? sizes.map((_, i) => i) : sizes.map((_, i) => sizes.length - 1 - i);
      for (const { index } of phase) {
        for (const i of order) {
          const size = sizes[i]!;
          const result = await measureCase(size.api, size.generated.brands[0]!.headers, size.cases[index]!);
          bySize[i]![round]!.push(result);
          process.stdout.write(
            `  round ${round + 1}/${ROUNDS}, scale ${size.scale}, ${result.name}: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.requestsPerSecond}/s, non-2xx ${result.non2xx}\n`,
          );
        }
      }
    }
  }
  return bySize;
}

/** A case's windows over the rounds as one line: the median round's p50, p99 and req/s. */
function summary(rounds: CaseResult[][], name: string): CaseResult {
  const windows = rounds.map((r) => r.find((x) => x.name === name)!);
  return {
    ...windows[0]!,
    p50Ms: median(windows.map((w) => w.p50Ms)),
    p99Ms: median(windows.map((w) => w.p99Ms)),
    requestsPerSecond: Math.round(median(windows.map((w) => w.requestsPerSecond))),
    non2xx: windows.reduce((sum, w) => sum + w.non2xx, 0),
    errors: windows.reduce((sum, w) => sum + w.errors, 0),
  };
}

interface PlannedStatement {
  sql: string;
  /** SQLite's plan; Postgres's with sequential scans made prohibitive. */
  plan: string;
  usesIndex: boolean;
  /** Postgres's plan as it chooses by itself (SQLite's plan again). */
  asPlanned: string;
}

/**
 * A Postgres plan, as the planner chooses or with sequential scans made prohibitive (as
 * packages/persistence-kysely/test/integration-health-plans.test.ts asks): then it shows whether
 * an index can serve the statement at all.
 */
async function postgresPlan(
  raw: ReturnType<typeof connectKysely>,
  statement: { sql: string; parameters: readonly unknown[] },
  scans: 'indexes preferred' | 'as planned',
): Promise<string> {
  return raw.transaction().execute(async (connection) => {
    if (scans === 'indexes preferred')
      await connection.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
    const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain (costs off) ${statement.sql}`, [...statement.parameters]),
    );
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

/** Whether a plan reaches every table through an index (see the header). */
function indexed(dialect: Dialect, plan: string): boolean {
  if (dialect === 'postgres') return !/Seq Scan/.test(plan);
  return plan
    .split('\n')
    .every((step) => !/^SCAN \w+( AS \w+)?$/.test(step.trim()) && !/^SCAN \w+ \(/.test(step.trim()));
}

/** The plan check: every select of every case through the app in this process, EXPLAINed. */
async function planCheck(
  dialect: Dialect,
  url: string,
  writerUrl: string,
  cases: Case[],
  brandHeaders: Headers,
): Promise<Record<string, PlannedStatement[]>> {
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];
  const storage = await openStorage(url, {
    log: (event: LogEvent) => {
      if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  const config = loadConfig({ ...process.env, DATABASE_URL: url, RATE_LIMIT_MAX: '1000000000' });
  const app = createApp({
    storage,
    clock: systemClock,
    hasher: nodeSecretHasher,
    logger: pino({ level: 'silent' }),
    config,
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const raw = connectKysely(parseDatabaseUrl(writerUrl));
  const report: Record<string, PlannedStatement[]> = {};
  try {
    for (const c of cases) {
      if (c.post) continue;
      // Once to warm the app's caches (the token, the brand), then the captured request.
      const ask = async () => {
        const response = await fetch(`${baseUrl}${c.path}`, { headers: c.headers ?? brandHeaders });
        const body = await response.text();
        if (!response.ok) throw new Error(`${c.name} answered ${response.status}: ${body.slice(0, 500)}`);
      };
      await ask();
      captured.length = 0;
      await ask();
      // The reads (an id allocator's draw is not one).
      const selects = captured.filter((s) => /^\s*(with|select)\b/i.test(s.sql) && !/nextval/.test(s.sql));
      const planned: PlannedStatement[] = [];
      for (const s of selects) {
        const plan =
          dialect === 'sqlite'
            ? (
                await raw.executeQuery<{ detail: string }>(
                  CompiledQuery.raw(`explain query plan ${s.sql}`, [...s.parameters]),
                )
              ).rows
                .map((r) => r.detail)
                .join('\n')
            : await postgresPlan(raw, s, 'indexes preferred');
        // Postgres as it plans by itself too: a small table is rightly read whole.
        const asPlanned = dialect === 'postgres' ? await postgresPlan(raw, s, 'as planned') : plan;
        planned.push({ sql: s.sql, plan, usesIndex: indexed(dialect, plan), asPlanned });
      }
      report[c.name] = planned;
      const misses = planned.filter((p) => !p.usesIndex).length;
      process.stdout.write(`  plan ${c.name}: ${planned.length} selects, ${misses} without an index\n`);
      for (const p of planned.filter(
        (x) =>
          !x.usesIndex ||
          /Seq Scan on (orders|order_lines|events|request_logs|customers|products|variants)\b/.test(x.asPlanned),
      ))
        process.stdout.write(`    ${p.sql.slice(0, 300)}\n      ${p.asPlanned.replace(/\n/g, '\n      ')}\n`);
    }
  } finally {
    await raw.destroy();
    await new Promise((resolve) => server.close(resolve));
    await requestLogOf(app).flush();
    await storage.close();
  }
  return report;
}

interface PreparedSize {
  scale: number;
  url: string;
  writerUrl: string;
  generated: Generated & { scale: number };
  api: RunningApi;
  cases: Case[];
  close: () => Promise<void>;
}

/** One size: its data generated, its server started and checked, its cases built. */
async function prepareSize(dialect: Dialect, scale: number): Promise<PreparedSize> {
  const size = productionSize(scale);
  let url: string;
  let writerUrl: string;
  let close: () => Promise<void>;
  if (dialect === 'sqlite') {
    url = tempDatabasePath(`production-size-${scale}`);
    writerUrl = url;
    close = async () => rmSync(dirname(url), { recursive: true, force: true });
  } else {
    const storage = await openTestStorage('postgres');
    url = storage.url;
    writerUrl = inspectionUrl(url);
    close = () => storage.close();
  }
  try {
    process.stdout.write(`\n${dialect}, scale ${scale}: generating ${JSON.stringify(size)}\n`);
    const generated = {
      ...(await generateProductionData(dialect, url, writerUrl, size, (line) => process.stdout.write(`  ${line}\n`))),
      scale,
    };
    process.stdout.write(
      `  generated in ${generated.seconds.toFixed(1)} s (bulk SQL ${generated.bulkSeconds.toFixed(1)} s), ${generated.databaseMb} MB on disk: ${JSON.stringify(generated.rows)}\n`,
    );
    const api = await startApiProcesses(url, 1);
    try {
      await verify(api.baseUrl, generated);
      process.stdout.write('  verified through the API: lists, an order with its lines, the events feed\n');
      const cases = await casesOf(writerUrl, generated, api.baseUrl);
      return { scale, url, writerUrl, generated, api, cases, close };
    } catch (error) {
      await stopApiProcesses(api);
      throw error;
    }
  } catch (error) {
    await close();
    throw error;
  }
}

/** After the rounds: the server's peak RSS, the plan check, the results saved; the size removed. */
async function finishSize(dialect: Dialect, size: PreparedSize, rounds: CaseResult[][]): Promise<void> {
  try {
    let rss: number;
    try {
      rss = peakRssMb(size.api.child.pid!);
      process.stdout.write(`  scale ${size.scale}: server peak RSS ${rss} MB\n`);
    } finally {
      await stopApiProcesses(size.api);
    }
    const plans = await planCheck(dialect, size.url, size.writerUrl, size.cases, size.generated.brands[0]!.headers);
    saveResults(`production-size-${dialect}-${size.scale}`, {
      dialect,
      scale: size.scale,
      size: productionSize(size.scale),
      generationSeconds: size.generated.seconds,
      bulkSeconds: size.generated.bulkSeconds,
      rows: size.generated.rows,
      rounds: ROUNDS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      exactLatencies: true,
      connections: CONNECTIONS,
      peakRssMb: rss,
      results: rounds.length === 0 ? [] : size.cases.map((c) => summary(rounds, c.name)),
      byRound: rounds,
      plans,
    });
  } finally {
    await size.close();
  }
}

/** Every size of one dialect generated and served at once, measured in alternating rounds. */
async function oneDialect(dialect: Dialect): Promise<void> {
  const sizes: PreparedSize[] = [];
  try {
    for (const scale of SCALES) sizes.push(await prepareSize(dialect, scale));
    const rounds = SKIP_LOAD ? sizes.map(() => []) : await measureInRounds(sizes);
    while (sizes.length > 0) await finishSize(dialect, sizes[0]!, rounds.shift()!).finally(() => sizes.shift());
  } finally {
    for (const size of sizes) await stopApiProcesses(size.api).finally(size.close);
  }
}

/**
 * The table of both sizes from the saved results (as far as both were run): the median round's
 * p50 / p99 at each size, and the ratio of record, the median over the rounds of that round's p99
 * at full size ÷ at 1 % (with the lowest and highest round's ratio).
 */
function printComparison(): void {
  const folder = join(__dirname, '..', 'results');
  const read = (dialect: string, scale: number) => {
    const file = join(folder, `production-size-${dialect}-${scale}.json`);
    return existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as {
          results: CaseResult[];
          byRound?: CaseResult[][];
          peakRssMb: number;
        })
      : null;
  };
  process.stdout.write(
    '\n| dialect | case | p50 / p99 1 % | p50 / p99 full | p99 full ÷ 1 %, median of rounds | lowest – highest round |\n|---|---|---:|---:|---:|---:|\n',
  );
  for (const dialect of ['sqlite', 'postgres']) {
    const small = read(dialect, 0.01);
    const full = read(dialect, 1);
    if (!small) continue;
    for (const r of small.results) {
      const f = full?.results.find((x) => x.name === r.name);
      const ratios = (full?.byRound ?? []).flatMap((round, i) => {
        const big = round.find((x) => x.name === r.name);
        const little = small.byRound?.[i]?.find((x) => x.name === r.name);
        return big && little ? [big.p99Ms / Math.max(1, little.p99Ms)] : [];
      });
      const spread =
        ratios.length === 0 ? '-' : `${Math.min(...ratios).toFixed(2)} – ${Math.max(...ratios).toFixed(2)}`;
      process.stdout.write(
        `| ${dialect} | ${r.name} | ${r.p50Ms} / ${r.p99Ms} | ${f ? `${f.p50Ms} / ${f.p99Ms}` : '-'} | ${ratios.length === 0 ? '-' : median(ratios).toFixed(2)} | ${spread} |\n`,
      );
    }
    process.stdout.write(`| ${dialect} | peak RSS MB | ${small.peakRssMb} | ${full?.peakRssMb ?? '-'} | | |\n`);
  }
}

async function main(): Promise<void> {
  const dialects = DIALECTS.filter((d) => d === 'sqlite' || (d === 'postgres' && process.env.TEST_POSTGRES_URL));
  for (const dialect of dialects) await oneDialect(dialect);
  printComparison();
}

if (!DIALECTS.includes('postgres'))
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
else runOnPostgres(main, __filename);
