/**
 * Issue 15 benchmark: the project against a raw-SQL baseline doing the same work (bench/src/baseline/:
 * Express 5 and better-sqlite3 prepared statements, the same auth, rate-limit headers, request id,
 * request log, signed cursors and order transaction). One SQLite database is seeded (100,000
 * customers through the sync use case, the order shop through the API); every server gets its
 * own copy. First both servers answer the same requests and must agree (answers and rows written,
 * see baseline-equivalence.ts); then, in the same run, each case is measured on the project and
 * the baseline in alternating rounds:
 *   (a) the authenticated one-row list        GET /v10/customers?limit=1          target ≥ 0.8
 *   (b) the first page of 100                 GET /v10/customers?limit=100        target ≥ 0.9
 *   (c) a page of 100, 90,000 rows deep by cursor                                 target ≥ 0.9
 *   (d) order creation with 3 lines, 50 connections, fresh copies for both       target ≥ 0.8
 * and prints req/s, p50 and p99 of both, each round's ratio project ÷ baseline and their median.
 *
 * BENCH_CUSTOMERS (default 100,000), BENCH_DEPTH (default 90 % of it), BENCH_SECONDS (per case
 * and server, default 10), BENCH_ROUNDS (the servers take turns, default 5 rounds of
 * BENCH_SECONDS / BENCH_ROUNDS each; a case's ratio is the median of its rounds' ratios).
 * `--check-only` stops after the equivalence check; BENCH_ONLY=<text> measures only the cases whose
 * name contains it (`BENCH_ONLY='(a)'`: the one-row list).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { issueAccessToken, systemClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { nodeSecretHasher } from '@brand/api';
import BetterSqlite3 from 'better-sqlite3';
import { BASELINE_SERVER, CheckData, checkBaselineEquivalence } from './baseline-equivalence';
import {
  Measurement,
  Shop,
  copyDatabase,
  measure,
  median,
  randomOrder,
  saveResults,
  seedCustomers,
  seedIntegrator,
  seedShop,
  startServer,
  stopServer,
  tempDatabasePath,
} from './harness';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const DEPTH = Number(process.env.BENCH_DEPTH ?? Math.floor(CUSTOMERS * 0.9));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const CHECK_ONLY = process.argv.includes('--check-only');
const ONLY = process.env.BENCH_ONLY;
const SHOP: Shop = { variants: 1000, customers: 100, stockPerVariant: 1_000_000 };
/** Both servers run with the project's default log level; lines go to a closed stdout. */
const SERVER_ENV = { RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'info' };

const seconds = (since: number): number => +((Date.now() - since) / 1000).toFixed(1);

/** Every database file of the run (the seed and its copies), removed at the end: each holds the whole seed. */
const databases: string[] = [];

async function copyOfSeed(seedPath: string, name: string): Promise<string> {
  const path = await copyDatabase(seedPath, name);
  databases.push(path);
  return path;
}

/**
 * The seeded database every server copies: an integrator (and a second token that may only read
 * the catalog), the list's customers, the order shop, and the cursor key (made by the project's
 * first list, so both servers sign with it).
 */
async function seed(): Promise<{ path: string; data: CheckData }> {
  const path = tempDatabasePath('pipeline-seed');
  databases.push(path);
  const { brandId, userId, appId, headers } = await seedIntegrator(path);
  let started = Date.now();
  await seedCustomers(path, brandId, CUSTOMERS);
  process.stdout.write(`seeded ${CUSTOMERS} customers through the sync use case in ${seconds(started)} s\n`);

  const storage = await openStorage(path);
  const { accessToken } = await issueAccessToken(
    { uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher },
    { userId, appId, scopes: ['catalog:read'] },
  );
  await storage.close();
  const catalogOnlyHeaders = { ...headers, authorization: `Bearer ${accessToken}` };

  started = Date.now();
  const { child, baseUrl } = await startServer({ ...SERVER_ENV, DATABASE_URL: path });
  let publicId: string;
  try {
    publicId = await seedShop(baseUrl, headers, SHOP);
    const list = await fetch(`${baseUrl}/v10/customers?limit=1`, { headers });
    if (!list.ok) throw new Error(`the seeded list answered ${list.status}: ${await list.text()}`);
  } finally {
    await stopServer(child);
  }
  // The seeding's rate-limit hits would count against the project's copies only.
  const db = new BetterSqlite3(path);
  db.exec('delete from rate_limit_counters');
  db.close();
  process.stdout.write(`seeded the order shop (${SHOP.variants} variants) through the API in ${seconds(started)} s\n`);
  return {
    path,
    data: { headers, catalogOnlyHeaders, publicId, customers: CUSTOMERS + SHOP.customers, depth: DEPTH },
  };
}

type Server = Awaited<ReturnType<typeof startServer>>;
interface Running {
  project: Server;
  baseline: Server;
}

/** Both servers, each on a fresh copy of the seeded database. */
async function startBoth(seedPath: string, name: string): Promise<Running> {
  const [projectDb, baselineDb] = [
    await copyOfSeed(seedPath, `${name}-project`),
    await copyOfSeed(seedPath, `${name}-baseline`),
  ];
  const project = await startServer({ ...SERVER_ENV, DATABASE_URL: projectDb });
  const baseline = await startServer({ ...SERVER_ENV, DATABASE_URL: baselineDb }, BASELINE_SERVER);
  return { project, baseline };
}

async function stopBoth(running: Running): Promise<void> {
  await stopServer(running.project.child);
  await stopServer(running.baseline.child);
}

/** The cursor a server hands out for the page after id `DEPTH`: the deep page (c) walks from it. */
async function deepCursor(baseUrl: string, headers: Record<string, string>): Promise<string> {
  const probe = await fetch(`${baseUrl}/v10/customers?limit=100&starting_after=${DEPTH}`, { headers });
  const body = (await probe.json()) as { next_cursor?: string };
  if (!probe.ok || !body.next_cursor) throw new Error(`no deep cursor: ${probe.status} ${JSON.stringify(body)}`);
  return body.next_cursor;
}

interface CaseResult {
  name: string;
  target: number;
  connections: number;
  /** Both servers over all rounds: requests per second over the case's measured time, and the median round's p50 / p99. */
  project: Measurement;
  baseline: Measurement;
  /** project ÷ baseline in each round, in the order measured. */
  roundRatios: number[];
  /** The median of the rounds' ratios: the case's figure. */
  ratio: number;
  /** Median CPU µs per request of each server over the rounds. */
  cpuMicros: { project: number; baseline: number };
  /** Baseline ÷ project CPU per request, by round, and their median (higher is better, as `ratio`). */
  cpuRatios: number[];
  cpuRatio: number;
  met: boolean;
  /** Wall time of the case: both servers, warm-ups included. */
  seconds: number;
}

/** One measured case: what to send to a server, from how many connections. */
interface Case {
  name: string;
  target: number;
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

/**
 * Measures one case on both servers in alternating rounds (project, baseline, project, …), each
 * `SECONDS / ROUNDS` long, and takes the median of the rounds' ratios. Why: on a shared machine
 * the speed of the whole machine drifts within a minute; measured one after the other, each for
 * a whole case, the two servers met different machines and one case's ratio swung from well below
 * to above parity between runs. A round compares the two close together in time.
 */
async function measureCase(spec: Case, running: Running, headers: Record<string, string>): Promise<CaseResult> {
  const started = Date.now();
  const loads = {
    project: await spec.load(running.project.baseUrl),
    baseline: await spec.load(running.baseline.baseUrl),
  };
  const run = (server: 'project' | 'baseline', round: number) => {
    const { url, requests } = loads[server];
    return measure(`${spec.name}: ${server}, round ${round + 1}`, url, headers, {
      seconds: SECONDS / ROUNDS,
      // The first round of each server warms it up; later rounds only let the connections settle.
      warmupSeconds: round === 0 ? 2 : 1,
      connections: spec.connections,
      serverPid: running[server].child.pid,
      ...(requests ? { requests } : {}),
    });
  };
  const rounds: { project: Measurement; baseline: Measurement }[] = [];
  for (let round = 0; round < ROUNDS; round++)
    rounds.push({ project: await run('project', round), baseline: await run('baseline', round) });
  const roundRatios = rounds.map((r) => +(r.project.requestsPerSecond / r.baseline.requestsPerSecond).toFixed(3));
  const ratio = +median(roundRatios).toFixed(3);
  // The same comparison by the servers' CPU time per request (baseline ÷ project, so higher is
  // better as for throughput): what each server spends on a request, whoever else had the cores.
  const cpuRatios = rounds.map(
    (r) => +((r.baseline.cpuMicrosPerRequest ?? NaN) / (r.project.cpuMicrosPerRequest ?? NaN)).toFixed(3),
  );
  const cpuRatio = +median(cpuRatios).toFixed(3);
  const cpuMicros = {
    project: median(rounds.map((r) => r.project.cpuMicrosPerRequest ?? NaN)),
    baseline: median(rounds.map((r) => r.baseline.cpuMicrosPerRequest ?? NaN)),
  };
  const project = combined(
    `${spec.name}: project`,
    rounds.map((r) => r.project),
  );
  const baseline = combined(
    `${spec.name}: baseline`,
    rounds.map((r) => r.baseline),
  );
  process.stdout.write(
    `${spec.name}: project ${project.requestsPerSecond} req/s, baseline ${baseline.requestsPerSecond} req/s, ` +
      `ratios by round ${roundRatios.join(' / ')}, median ${ratio}; ` +
      `CPU per request ${cpuMicros.project} / ${cpuMicros.baseline} µs, baseline ÷ project by round ${cpuRatios.join(' / ')}, median ${cpuRatio}\n`,
  );
  return {
    name: spec.name,
    target: spec.target,
    connections: spec.connections,
    project,
    baseline,
    roundRatios,
    ratio,
    cpuMicros,
    cpuRatios,
    cpuRatio,
    met: ratio >= spec.target,
    seconds: seconds(started),
  };
}

function printComparison(results: CaseResult[]): void {
  process.stdout.write(
    `\nProject ÷ raw-SQL baseline on SQLite, ${CUSTOMERS} customers, ${SECONDS} s per case and server in ${ROUNDS} alternating rounds\n` +
      '| case | conns | project req/s | baseline req/s | project ÷ baseline (median of rounds) | rounds | target | CPU µs per request p / b | by CPU: baseline ÷ project (rounds) | project p50 / p99 ms | baseline p50 / p99 ms | non-2xx p / b | case time s |\n' +
      '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n',
  );
  for (const r of results)
    process.stdout.write(
      `| ${r.name} | ${r.connections} | ${r.project.requestsPerSecond} | ${r.baseline.requestsPerSecond} | ` +
        `${r.ratio} ${r.met ? '(met)' : '(missed)'} | ${r.roundRatios.join(' / ')} | >= ${r.target} | ` +
        `${r.cpuMicros.project} / ${r.cpuMicros.baseline} | ${r.cpuRatio} (${Math.min(...r.cpuRatios)}–${Math.max(...r.cpuRatios)}) | ${r.project.p50Ms} / ${r.project.p99Ms} | ` +
        `${r.baseline.p50Ms} / ${r.baseline.p99Ms} | ${r.project.non2xx + r.project.errors} / ${r.baseline.non2xx + r.baseline.errors} | ${r.seconds} |\n`,
    );
}

async function main(): Promise<void> {
  const runStarted = Date.now();
  const { path: seedPath, data } = await seed();

  const started = Date.now();
  const { requests } = await checkBaselineEquivalence(
    {
      project: await copyOfSeed(seedPath, 'pipeline-check-project'),
      baseline: await copyOfSeed(seedPath, 'pipeline-check-baseline'),
    },
    data,
  );
  process.stdout.write(
    `the baseline answered ${requests} requests as the project did and wrote the same rows (${seconds(started)} s)\n`,
  );
  if (CHECK_ONLY) return;

  const { headers } = data;
  const lists: Case[] = [
    {
      name: '(a) one-row list',
      target: 0.8,
      connections: 16,
      load: async (url) => ({ url: `${url}/v10/customers?limit=1` }),
    },
    {
      name: '(b) first page of 100',
      target: 0.9,
      connections: 16,
      load: async (url) => ({ url: `${url}/v10/customers?limit=100` }),
    },
    {
      name: `(c) page of 100 at ${DEPTH + 100} by cursor`,
      target: 0.9,
      connections: 16,
      load: async (url) => ({
        url: `${url}/v10/customers?limit=100&cursor=${encodeURIComponent(await deepCursor(url, headers))}`,
      }),
    },
  ];
  const orders: Case = {
    name: '(d) order with 3 lines',
    target: 0.8,
    connections: 50,
    load: async (url) => ({
      url: `${url}/v10/order-channels/${data.publicId}/orders`,
      requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: randomOrder(SHOP) }) }],
    }),
  };

  const results: CaseResult[] = [];
  // The lists share one pair of copies; orders get fresh ones, so both servers start from equal stock and counters.
  for (const [name, all] of [
    ['pipeline-lists', lists],
    ['pipeline-orders', [orders]],
  ] as const) {
    const cases = all.filter((spec) => ONLY === undefined || spec.name.includes(ONLY));
    if (cases.length === 0) continue;
    const running = await startBoth(seedPath, name);
    try {
      for (const spec of cases) results.push(await measureCase(spec, running, headers));
    } finally {
      await stopBoth(running);
    }
  }

  printComparison(results);
  saveResults('pipeline', {
    customers: CUSTOMERS,
    depth: DEPTH,
    seconds: SECONDS,
    rounds: ROUNDS,
    shop: SHOP,
    checkedRequests: requests,
    cases: results,
    totalSeconds: seconds(runStarted),
  });
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const path of databases) rmSync(dirname(path), { recursive: true, force: true });
  });
