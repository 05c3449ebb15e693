/**
 * Issues 15 and 37 benchmark: the project against raw-SQL baselines doing the same work, on SQLite
 * and on Postgres, in four cases:
 *   (a) the authenticated one-row list        GET /v10/customers?limit=1
 *   (b) the first page of 100                 GET /v10/customers?limit=100
 *   (c) a page of 100, 90 % deep by cursor
 *   (d) order creation with 3 lines, 50 connections, fresh copies of the database for every server
 *
 * The baselines (bench/src/baseline/): Express 5 with the project's wire behaviour (auth,
 * rate-limit headers, request id, log line, request log, signed cursors, the order transaction).
 * - SQLite, same contract (the line of record): better-sqlite3 prepared statements, and the
 *   project's rules of DESIGN §9 in the cheapest raw way: the one-row credentials revision read on
 *   every request (its verified tokens emptied when it moved), rate limits leased from the shared
 *   counters in `rate_limit_counters` by the project's lease rule.
 * - SQLite, legacy (the first baseline, a second labelled line): a verified token trusted for
 *   2 s, rate limits counted in memory.
 * - Postgres, same contract: the same work as pg named statements on the same Postgres server,
 *   the project and the baseline each on its own database copied from one seed, with one and with
 *   two worker processes (the project `WEB_CONCURRENCY=2` as its node:cluster, the baseline a
 *   cluster of its own).
 * Before measuring, each baseline answers the same requests as the project and must agree
 * (answers and rows written, rate-limit counters included; see baseline-equivalence.ts).
 *
 * Each case is measured in alternating rounds (project, then each baseline, in turn), each
 * `BENCH_SECONDS / BENCH_ROUNDS` long. The ratio of record is baseline ÷ project CPU time per
 * request (read from /proc around each round), the median of the rounds; on Postgres the CPU of
 * the database's backends serving each side's database is added (app + database is the ratio of
 * record there: a project that issues more or heavier statements moves its cost into the database;
 * app only is reported beside it). Throughput (project ÷ baseline req/s) and p50/p99 are reported
 * beside it.
 *
 * BENCH_DIALECTS (sqlite, postgres, or both: the default; Postgres runs inside
 * tooling/scripts/with-postgres.sh unless TEST_POSTGRES_URL is set), BENCH_CUSTOMERS (default
 * 100,000), BENCH_DEPTH (default 90 % of it), BENCH_SECONDS (per case and server, default 12),
 * BENCH_ROUNDS (default 8), BENCH_WORKERS (the Postgres worker counts, default `1,2`).
 * `--check-only` stops after the equivalence checks; BENCH_ONLY=<text> measures only the cases
 * whose name contains it (`BENCH_ONLY='(a)'`: the one-row list).
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { issueAccessToken, systemClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { inspectionUrl } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '@brand/api';
import BetterSqlite3 from 'better-sqlite3';
import {
  BASELINE_SERVER,
  CheckData,
  CheckSide,
  Contract,
  checkBaselineEquivalence,
  postgresRevoke,
  postgresSnapshot,
  sqliteSide,
} from './baseline-equivalence';
import {
  Measurement,
  Shop,
  copyDatabase,
  measure,
  median,
  postgresBackends,
  processTree,
  randomOrder,
  runOnPostgres,
  saveResults,
  seedCustomers,
  seedIntegrator,
  seedShop,
  startApiProcesses,
  startServer,
  stopApiProcesses,
  stopServer,
  tempDatabasePath,
} from './harness';

type Dialect = 'sqlite' | 'postgres';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const DEPTH = Number(process.env.BENCH_DEPTH ?? Math.floor(CUSTOMERS * 0.9));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 8));
const WORKERS = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number);
const DIALECTS: Dialect[] =
  process.env.BENCH_DIALECTS === 'sqlite' || process.env.BENCH_DIALECTS === 'postgres'
    ? [process.env.BENCH_DIALECTS]
    : ['sqlite', 'postgres'];
const CHECK_ONLY = process.argv.includes('--check-only');
const ONLY = process.env.BENCH_ONLY;
const SHOP: Shop = { variants: 1000, customers: 100, stockPerVariant: 1_000_000 };
/** Every server runs with the project's default log level; lines go to a file, as the real server's do. */
const SERVER_ENV = { RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'info' };
const PG_BASELINE_SERVER = 'baseline/pg/server.js';

const seconds = (since: number): number => +((Date.now() - since) / 1000).toFixed(1);

/** Every SQLite database file of the run (the seed and its copies), removed at the end: each holds the whole seed. */
const sqliteFiles: string[] = [];
/** Every Postgres database of the run, dropped at the end. */
const postgresDatabases: string[] = [];

/** One database of the run: its URL, and its URL for a role that row-level security does not bind. */
interface Database {
  url: string;
  adminUrl: string;
}

/** A copy of the seed for one server. */
async function copyOfSeed(dialect: Dialect, seed: Database, name: string): Promise<Database> {
  if (dialect === 'sqlite') {
    const path = await copyDatabase(seed.url, name);
    sqliteFiles.push(path);
    return { url: path, adminUrl: path };
  }
  const database = `bench_${name.replace(/[^a-z0-9]/g, '_')}_${Date.now().toString(36)}`;
  await withClient(adminServerUrl(), async (admin) => {
    const { rows } = await admin.query<{ file_copy: boolean }>(
      "select current_setting('server_version_num')::int >= 150000 as file_copy",
    );
    await admin.query(
      `create database ${database} owner brand_app template ${databaseName(seed.url)}${rows[0]!.file_copy ? ' strategy file_copy' : ''}`,
    );
  });
  postgresDatabases.push(database);
  return postgresDatabase(database);
}

const databaseName = (url: string): string => new URL(url).pathname.slice(1);

function withDatabaseName(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function adminServerUrl(): string {
  return process.env.TEST_POSTGRES_ADMIN_URL ?? process.env.TEST_POSTGRES_URL!;
}

function postgresDatabase(database: string): Database {
  const url = withDatabaseName(process.env.TEST_POSTGRES_URL!, database);
  return { url, adminUrl: inspectionUrl(url) };
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The seeded database every server copies: an integrator (and a second token that may only read
 * the catalog), the list's customers, the order shop, and the cursor key (made by the project's
 * first list, so every server signs with it).
 */
async function seed(dialect: Dialect): Promise<{ database: Database; data: CheckData }> {
  let database: Database;
  if (dialect === 'sqlite') {
    const path = tempDatabasePath('pipeline-seed');
    sqliteFiles.push(path);
    database = { url: path, adminUrl: path };
  } else {
    const name = `bench_pipeline_seed_${Date.now().toString(36)}`;
    await withClient(adminServerUrl(), (admin) => admin.query(`create database ${name} owner brand_app`));
    postgresDatabases.push(name);
    database = postgresDatabase(name);
  }
  const { brandId, userId, appId, headers } = await seedIntegrator(database.url);
  let started = Date.now();
  await seedCustomers(database.url, brandId, CUSTOMERS);
  process.stdout.write(
    `${dialect}: seeded ${CUSTOMERS} customers through the sync use case in ${seconds(started)} s\n`,
  );

  const storage = await openStorage(database.url);
  const { accessToken } = await issueAccessToken(
    { uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher },
    { userId, appId, scopes: ['catalog:read'] },
  );
  await storage.close();
  const catalogOnlyHeaders = { ...headers, authorization: `Bearer ${accessToken}` };

  started = Date.now();
  const { child, baseUrl } = await startServer({ ...SERVER_ENV, DATABASE_URL: database.url });
  let publicId: string;
  try {
    publicId = await seedShop(baseUrl, headers, SHOP);
    const list = await fetch(`${baseUrl}/v10/customers?limit=1`, { headers });
    if (!list.ok) throw new Error(`the seeded list answered ${list.status}: ${await list.text()}`);
  } finally {
    await stopServer(child);
  }
  // The seeding's rate-limit hits would count against the project's copies only.
  if (dialect === 'sqlite') {
    const db = new BetterSqlite3(database.url);
    db.exec('delete from rate_limit_counters');
    db.close();
  } else {
    await withClient(database.adminUrl, async (client) => {
      await client.query('delete from rate_limit_counters');
      // Planner statistics for the copies (a fresh database's autovacuum may not have run yet).
      await client.query('vacuum analyze');
    });
  }
  process.stdout.write(
    `${dialect}: seeded the order shop (${SHOP.variants} variants) through the API in ${seconds(started)} s\n`,
  );
  return {
    database,
    data: { headers, catalogOnlyHeaders, publicId, customers: CUSTOMERS + SHOP.customers, depth: DEPTH },
  };
}

/** One server under measurement: where it answers, its processes, the database processes serving it, how to stop it. */
interface Contender {
  label: string;
  baseUrl: string;
  processes: () => number[];
  databaseProcesses?: () => number[];
  stop: () => Promise<void>;
}

/** A temporary folder for a server's log file (removed with the SQLite copies, or at the end). */
function logFile(name: string): string {
  const path = tempDatabasePath(`${name}-log`);
  sqliteFiles.push(path);
  return join(dirname(path), 'server.log');
}

/** A server of the harness (the project's bench server or a baseline) on `database`, in one process or a cluster. */
async function forkedContender(
  label: string,
  database: Database,
  script: string | undefined,
  env: Record<string, string>,
  dialect: Dialect,
): Promise<Contender> {
  const server = await startServer(
    { ...SERVER_ENV, ...env, DATABASE_URL: database.url },
    script,
    logFile(label.replace(/\W+/g, '-')),
  );
  const pid = server.child.pid!;
  return {
    label,
    baseUrl: server.baseUrl,
    processes: () => processTree(pid),
    ...(dialect === 'postgres' ? { databaseProcesses: await postgresBackends(database.url) } : {}),
    stop: () => stopServer(server.child),
  };
}

/** The project's real server (`dist/server.js`) with `workers` processes on Postgres. */
async function apiContender(database: Database, workers: number): Promise<Contender> {
  const api = await startApiProcesses(database.url, workers);
  const pid = api.child.pid!;
  return {
    label: 'project',
    baseUrl: api.baseUrl,
    processes: () => processTree(pid),
    databaseProcesses: await postgresBackends(database.url),
    stop: () => stopApiProcesses(api),
  };
}

/** The servers of one set of cases, each on a fresh copy of the seed: the project first, then the baselines. */
async function startContenders(
  dialect: Dialect,
  seedDatabase: Database,
  name: string,
  workers: number,
): Promise<Contender[]> {
  const copy = (role: string) => copyOfSeed(dialect, seedDatabase, `${name}-${role}`);
  const starts: (() => Promise<Contender>)[] =
    dialect === 'sqlite'
      ? [
          async () => forkedContender('project', await copy('project'), undefined, {}, dialect),
          async () =>
            forkedContender(
              'baseline (same contract)',
              await copy('baseline'),
              BASELINE_SERVER,
              { BASELINE_CONTRACT: 'same' },
              dialect,
            ),
          async () =>
            forkedContender(
              'baseline (legacy)',
              await copy('legacy'),
              BASELINE_SERVER,
              { BASELINE_CONTRACT: 'legacy' },
              dialect,
            ),
        ]
      : [
          async () => apiContender(await copy('project'), workers),
          async () =>
            forkedContender(
              'baseline (same contract)',
              await copy('baseline'),
              PG_BASELINE_SERVER,
              { WEB_CONCURRENCY: String(workers) },
              dialect,
            ),
        ];
  const started: Contender[] = [];
  try {
    for (const start of starts) started.push(await start());
  } catch (error) {
    // None left running: they hold the database copies (and on Postgres, connections).
    for (const contender of started) await contender.stop();
    throw error;
  }
  return started;
}

/** One baseline's comparison with the project in a case. */
interface Comparison {
  baseline: string;
  /** Baseline ÷ project CPU per request (app only) by round, and their median. */
  cpuRatios: number[];
  cpuRatio: number;
  /** The same with the database's CPU added on both sides (Postgres), and their median. */
  cpuWithDatabaseRatios?: number[];
  cpuWithDatabaseRatio?: number;
  /** Project ÷ baseline req/s by round, and their median. */
  throughputRatios: number[];
  throughputRatio: number;
}

interface ContenderResult {
  label: string;
  /** Mean req/s over the rounds, the median round's p50 / p99. */
  measurement: Measurement;
  /** Median CPU µs per request over the rounds: the server's, and the database's (Postgres). */
  cpuMicros: number;
  databaseCpuMicros?: number;
}

interface CaseResult {
  dialect: Dialect;
  workers: number;
  name: string;
  target: number;
  connections: number;
  contenders: ContenderResult[];
  comparisons: Comparison[];
  /** The ratio of record: the same-contract baseline's CPU ratio (with the database's on Postgres). */
  ratioOfRecord: number;
  met: boolean;
  /** Wall time of the case: every server, warm-ups included. */
  seconds: number;
}

/** One measured case: what to send to a server, from how many connections. */
interface Case {
  name: string;
  connections: number;
  /** The URL (and the POST requests) for a server; may ask the server first (the deep cursor). */
  load: (
    baseUrl: string,
  ) => Promise<{ url: string; requests?: NonNullable<Parameters<typeof measure>[3]>['requests'] }>;
}

/** The rounds of one server as one measurement: mean req/s over all rounds, the median round's latencies. */
function combined(name: string, rounds: Measurement[]): Measurement {
  return {
    name,
    requestsPerSecond: Math.round(rounds.reduce((sum, r) => sum + r.requestsPerSecond, 0) / rounds.length),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
  };
}

const ratio = (a: number, b: number): number => +(a / b).toFixed(3);
/** The median of the rounds that answered (a round without a single answer has no ratio). */
const medianOfRounds = (values: number[]): number => +median(values.filter(Number.isFinite)).toFixed(3);

/**
 * Measures one case on every server in alternating rounds (project, baseline, …, project, …),
 * each `SECONDS / ROUNDS` long, and takes the median of the rounds' ratios. Why: on a shared
 * machine the speed of the whole machine drifts within a minute; measured one after the other,
 * each for a whole case, the servers met different machines. A round compares them close together
 * in time.
 */
async function measureCase(
  dialect: Dialect,
  workers: number,
  spec: Case,
  contenders: Contender[],
  headers: Record<string, string>,
): Promise<CaseResult> {
  const started = Date.now();
  const loads = await Promise.all(contenders.map((c) => spec.load(c.baseUrl)));
  const rounds: Measurement[][] = contenders.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, contender] of contenders.entries()) {
      const { url, requests } = loads[i]!;
      rounds[i]!.push(
        await measure(`${spec.name}: ${contender.label}, round ${round + 1}`, url, headers, {
          seconds: SECONDS / ROUNDS,
          // The first round of each server warms it up; later rounds only let the connections settle.
          warmupSeconds: round === 0 ? 2 : 1,
          connections: spec.connections,
          serverProcesses: contender.processes,
          ...(contender.databaseProcesses ? { databaseProcesses: contender.databaseProcesses } : {}),
          ...(requests ? { requests } : {}),
        }),
      );
    }
  const cpu = (m: Measurement) => m.cpuMicrosPerRequest ?? NaN;
  const withDatabase = (m: Measurement) => cpu(m) + (m.databaseCpuMicrosPerRequest ?? NaN);
  const project = rounds[0]!;
  const comparisons: Comparison[] = contenders.slice(1).map((contender, i) => {
    const baseline = rounds[i + 1]!;
    const cpuRatios = baseline.map((b, r) => ratio(cpu(b), cpu(project[r]!)));
    const throughputRatios = baseline.map((b, r) => ratio(project[r]!.requestsPerSecond, b.requestsPerSecond));
    const cpuWithDatabaseRatios =
      dialect === 'postgres' ? baseline.map((b, r) => ratio(withDatabase(b), withDatabase(project[r]!))) : undefined;
    return {
      baseline: contender.label,
      cpuRatios,
      cpuRatio: medianOfRounds(cpuRatios),
      ...(cpuWithDatabaseRatios
        ? { cpuWithDatabaseRatios, cpuWithDatabaseRatio: medianOfRounds(cpuWithDatabaseRatios) }
        : {}),
      throughputRatios,
      throughputRatio: medianOfRounds(throughputRatios),
    };
  });
  const results: ContenderResult[] = contenders.map((contender, i) => ({
    label: contender.label,
    measurement: combined(`${spec.name}: ${contender.label}`, rounds[i]!),
    cpuMicros: medianOfRounds(rounds[i]!.map(cpu)),
    ...(dialect === 'postgres'
      ? { databaseCpuMicros: medianOfRounds(rounds[i]!.map((m) => m.databaseCpuMicrosPerRequest ?? NaN)) }
      : {}),
  }));
  const record = comparisons[0]!;
  const ratioOfRecord = record.cpuWithDatabaseRatio ?? record.cpuRatio;
  const target = dialect === 'sqlite' ? 0.9 : 0.8;
  for (const c of comparisons)
    process.stdout.write(
      `${dialect}${dialect === 'postgres' ? `, ${workers} worker(s)` : ''} ${spec.name} vs ${c.baseline}: ` +
        `CPU baseline ÷ project by round ${c.cpuRatios.join(' / ')}, median ${c.cpuRatio}` +
        (c.cpuWithDatabaseRatios
          ? `; with the database ${c.cpuWithDatabaseRatios.join(' / ')}, median ${c.cpuWithDatabaseRatio}`
          : '') +
        `; throughput project ÷ baseline median ${c.throughputRatio}\n`,
    );
  return {
    dialect,
    workers,
    name: spec.name,
    target,
    connections: spec.connections,
    contenders: results,
    comparisons,
    ratioOfRecord,
    met: ratioOfRecord >= target,
    seconds: seconds(started),
  };
}

function printComparison(dialect: Dialect, workers: number, results: CaseResult[]): void {
  const postgres = dialect === 'postgres';
  process.stdout.write(
    `\nProject against the raw-SQL baselines on ${dialect}${postgres ? `, ${workers} worker process(es) each` : ''}, ` +
      `${CUSTOMERS} customers, ${SECONDS} s per case and server in ${ROUNDS} alternating rounds\n` +
      `| case | conns | baseline | ratio of record: baseline ÷ project CPU${postgres ? ' (app + database)' : ''} (rounds min–max) | target | ` +
      `${postgres ? 'app-only CPU ratio | ' : ''}CPU µs/request project / baseline${postgres ? ' (app + database)' : ''} | ` +
      'req/s project / baseline | project ÷ baseline req/s | p50 / p99 ms project | p50 / p99 ms baseline | non-2xx p / b |\n' +
      `|---|---:|---|---:|---:|${postgres ? '---:|' : ''}---:|---:|---:|---:|---:|---:|\n`,
  );
  for (const r of results) {
    const project = r.contenders[0]!;
    for (const [i, c] of r.comparisons.entries()) {
      const baseline = r.contenders[i + 1]!;
      const rounds = c.cpuWithDatabaseRatios ?? c.cpuRatios;
      const record = c.cpuWithDatabaseRatio ?? c.cpuRatio;
      const cpuOf = (x: ContenderResult) => (postgres ? `${x.cpuMicros} + ${x.databaseCpuMicros}` : `${x.cpuMicros}`);
      process.stdout.write(
        `| ${r.name} | ${r.connections} | ${c.baseline} | ${record} (${Math.min(...rounds)}–${Math.max(...rounds)})` +
          `${i === 0 ? (r.met ? ' met' : ' missed') : ''} | ${i === 0 ? `>= ${r.target}` : '-'} | ` +
          `${postgres ? `${c.cpuRatio} | ` : ''}${cpuOf(project)} / ${cpuOf(baseline)} | ` +
          `${project.measurement.requestsPerSecond} / ${baseline.measurement.requestsPerSecond} | ${c.throughputRatio} | ` +
          `${project.measurement.p50Ms} / ${project.measurement.p99Ms} | ${baseline.measurement.p50Ms} / ${baseline.measurement.p99Ms} | ` +
          `${project.measurement.non2xx + project.measurement.errors} / ${baseline.measurement.non2xx + baseline.measurement.errors} |\n`,
      );
    }
  }
}

/** The check's sides on Postgres: the project's bench server and the Postgres baseline, each on its own copy. */
function postgresSide(database: Database, script?: string): CheckSide {
  return {
    start: async (env) => {
      const server = await startServer({ ...env, DATABASE_URL: database.url }, script);
      return { baseUrl: server.baseUrl, stop: () => stopServer(server.child) };
    },
    snapshot: () => postgresSnapshot(database.adminUrl),
    revoke: (tokenHash) => postgresRevoke(database.adminUrl, tokenHash),
  };
}

async function runDialect(dialect: Dialect): Promise<CaseResult[]> {
  const { database: seedDatabase, data } = await seed(dialect);

  const contracts: Contract[] = dialect === 'sqlite' ? ['same', 'legacy'] : ['same'];
  const checked: Record<string, number> = {};
  for (const contract of contracts) {
    const started = Date.now();
    const [project, baseline] = [
      await copyOfSeed(dialect, seedDatabase, `check-${contract}-project`),
      await copyOfSeed(dialect, seedDatabase, `check-${contract}-baseline`),
    ];
    const sides =
      dialect === 'sqlite'
        ? { project: sqliteSide(project.url), baseline: sqliteSide(baseline.url, BASELINE_SERVER) }
        : { project: postgresSide(project), baseline: postgresSide(baseline, PG_BASELINE_SERVER) };
    const { requests } = await checkBaselineEquivalence(sides, data, contract);
    checked[contract] = requests;
    process.stdout.write(
      `${dialect}: the ${contract === 'same' ? 'same-contract' : 'legacy'} baseline answered ${requests} requests ` +
        `as the project did and wrote the same rows (${seconds(started)} s)\n`,
    );
  }
  if (CHECK_ONLY) return [];

  const { headers } = data;
  const deepCursor = async (baseUrl: string): Promise<string> => {
    const probe = await fetch(`${baseUrl}/v10/customers?limit=100&starting_after=${DEPTH}`, { headers });
    const body = (await probe.json()) as { next_cursor?: string };
    if (!probe.ok || !body.next_cursor) throw new Error(`no deep cursor: ${probe.status} ${JSON.stringify(body)}`);
    return body.next_cursor;
  };
  const lists: Case[] = [
    { name: '(a) one-row list', connections: 16, load: async (url) => ({ url: `${url}/v10/customers?limit=1` }) },
    {
      name: '(b) first page of 100',
      connections: 16,
      load: async (url) => ({ url: `${url}/v10/customers?limit=100` }),
    },
    {
      name: `(c) page of 100 at ${DEPTH + 100} by cursor`,
      connections: 16,
      load: async (url) => ({
        url: `${url}/v10/customers?limit=100&cursor=${encodeURIComponent(await deepCursor(url))}`,
      }),
    },
  ];
  const orders: Case = {
    name: '(d) order with 3 lines',
    connections: 50,
    load: async (url) => ({
      url: `${url}/v10/order-channels/${data.publicId}/orders`,
      requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: randomOrder(SHOP) }) }],
    }),
  };

  const results: CaseResult[] = [];
  for (const workers of dialect === 'sqlite' ? [1] : WORKERS) {
    const ofWorkers: CaseResult[] = [];
    // The lists share one set of copies; orders get fresh ones, so every server starts from equal stock and counters.
    for (const [name, all] of [
      ['lists', lists],
      ['orders', [orders]],
    ] as const) {
      const cases = all.filter((spec) => ONLY === undefined || spec.name.includes(ONLY));
      if (cases.length === 0) continue;
      const contenders = await startContenders(dialect, seedDatabase, `${name}-${workers}w`, workers);
      try {
        for (const spec of cases) ofWorkers.push(await measureCase(dialect, workers, spec, contenders, headers));
      } finally {
        for (const contender of contenders) await contender.stop();
      }
    }
    printComparison(dialect, workers, ofWorkers);
    results.push(...ofWorkers);
  }
  return results;
}

async function main(): Promise<void> {
  const runStarted = Date.now();
  const cases: CaseResult[] = [];
  try {
    for (const dialect of DIALECTS) cases.push(...(await runDialect(dialect)));
  } finally {
    for (const path of sqliteFiles) rmSync(dirname(path), { recursive: true, force: true });
    if (postgresDatabases.length > 0)
      await withClient(adminServerUrl(), async (admin) => {
        for (const name of postgresDatabases) await admin.query(`drop database if exists ${name} with (force)`);
      });
  }
  if (CHECK_ONLY) return;
  saveResults('pipeline', {
    dialects: DIALECTS,
    customers: CUSTOMERS,
    depth: DEPTH,
    seconds: SECONDS,
    rounds: ROUNDS,
    shop: SHOP,
    cases,
    totalSeconds: seconds(runStarted),
  });
}

const fail = (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
};

if (DIALECTS.includes('postgres')) runOnPostgres(main, __filename);
else main().catch(fail);
