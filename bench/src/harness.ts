import { openTestStorage } from '@brand/persistence-kysely/testing';
import { ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from 'pg';
import {
  CustomerSyncItem,
  createApiApp,
  createBrand,
  createUser,
  issueAccessToken,
  syncCustomers,
  systemClock,
} from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { nodeSecretHasher, serverNodeFlags } from '@brand/api';

/** One measured load: requests per second (mean) and latency percentiles in milliseconds. */
export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /**
   * The server's CPU time (user + system) per answered request in µs, when its pid was given:
   * unlike requests per second, it does not drop when other jobs take the machine's cores away.
   */
  cpuMicrosPerRequest?: number;
  /** The database server's CPU time per answered request in µs, when its processes were given (Postgres). */
  databaseCpuMicrosPerRequest?: number;
}

export function tempDatabasePath(name: string): string {
  return join(mkdtempSync(join(tmpdir(), `brand-bench-${name}-`)), 'bench.sqlite');
}

/**
 * Starts a server script in a child process (by default bench-server.js, the project's app) and
 * resolves once it listens; the script reads DATABASE_URL and PORT and reports readiness over IPC.
 */
export async function startServer(
  env: Record<string, string>,
  script = 'bench-server.js',
  /** Where its log lines go (a file, as `startApiProcesses` writes them); none by default. */
  logFile?: string,
): Promise<{ child: ChildProcess; baseUrl: string }> {
  const log = logFile === undefined ? 'ignore' : openSync(logFile, 'w');
  // Port 0: the server takes a free port and reports it (a random pick collided now and then).
  const child = fork(join(__dirname, script), [], {
    // The flags `npm start` gives the API (apps/api/server.node-flags), for the baseline too.
    execArgv: serverNodeFlags(),
    env: { ...process.env, ...env, PORT: '0' },
    stdio: ['ignore', log, 'inherit', 'ipc'],
  });
  if (typeof log === 'number') closeSync(log);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port?: number }) => resolve(Number(message.port)));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const API_SERVER = require.resolve('@brand/api/dist/server.js');

/** A TCP port nobody listens on right now (the kernel's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The real server (`apps/api/dist/server.js`, what `pnpm start` runs) in a process of its own. */
export interface RunningApi {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number | null>;
  folder: string;
}

/**
 * Starts the real server with `workers` processes (WEB_CONCURRENCY) and resolves once each logged
 * that it listens. The logs (a JSON line per request, as in production) go to a file, so that
 * reading them costs the load generator nothing.
 */
export async function startApiProcesses(databaseUrl: string, workers: number): Promise<RunningApi> {
  const port = await freePort();
  const folder = mkdtempSync(join(tmpdir(), 'brand-bench-workers-'));
  const logFile = join(folder, 'api.log');
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...serverNodeFlags(), API_SERVER], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      WEB_CONCURRENCY: String(workers),
      RATE_LIMIT_MAX: '1000000000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  for (;;) {
    const listening = readFileSync(logFile, 'utf8').match(/"msg":"API listening"/g)?.length ?? 0;
    if (listening >= workers) break;
    if (ended) throw new Error(`the API exited before it listened:\n${readFileSync(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited, folder };
}

/** SIGTERM, as an operator stops it; the graceful shutdown must end with exit code 0. */
export async function stopApiProcesses(api: RunningApi): Promise<void> {
  api.child.kill('SIGTERM');
  const code = await api.exited;
  rmSync(api.folder, { recursive: true, force: true });
  if (code !== 0) throw new Error(`the API exited with ${code} after SIGTERM`);
}

/** Drives one URL with autocannon for `seconds` after a short warm-up (`requests` shapes POSTs, e.g. a fresh body per request). */
export async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  options: {
    connections?: number;
    seconds?: number;
    warmupSeconds?: number;
    requests?: autocannon.Request[];
    /** The server's pid: its CPU time over the measured seconds is reported per request. */
    serverPid?: number;
    /** Or the server's processes (several, e.g. a cluster): their CPU time is reported per request. */
    serverProcesses?: () => number[];
    /** The database server's processes (its backends): their CPU time is reported per request too. */
    databaseProcesses?: () => number[];
    /**
     * p50 and p99 from every 2xx response's own time (to a tenth of a millisecond) instead of
     * autocannon's histogram, which counts whole milliseconds: where a p99 is a few milliseconds,
     * one step of the histogram is a large share of it, too coarse to compare two of them.
     */
    exactLatencies?: boolean;
  } = {},
): Promise<Measurement> {
  const connections = options.connections ?? 16;
  const shape = options.requests ? { requests: options.requests } : {};
  await autocannon({ url, headers, connections, duration: options.warmupSeconds ?? 2, ...shape });
  const cpuBefore = options.serverPid === undefined ? 0 : cpuMillis(options.serverPid);
  const appBefore = options.serverProcesses && cpuByProcess(options.serverProcesses());
  const databaseBefore = options.databaseProcesses && cpuByProcess(options.databaseProcesses());
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon({ url, headers, connections, duration: options.seconds ?? 10, ...shape }, (error, r) =>
      error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(r),
    );
    // autocannon passes the client first (as its README says), which its published types leave out.
    if (options.exactLatencies)
      (run as NodeJS.EventEmitter).on('response', (_client, statusCode: number, _bytes, responseTime: number) => {
        if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
      });
  });
  const cpuAfter = options.serverPid === undefined ? 0 : cpuMillis(options.serverPid);
  const appMillis = appBefore && cpuSince(appBefore, cpuByProcess(options.serverProcesses!()));
  const databaseMillis = databaseBefore && cpuSince(databaseBefore, cpuByProcess(options.databaseProcesses!()));
  const perRequest = (millis: number) => Math.round((millis * 1000) / result.requests.total);
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: options.exactLatencies ? percentile(times, 50) : result.latency.p50,
    p99Ms: options.exactLatencies ? percentile(times, 99) : result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ...(options.serverPid === undefined || result.requests.total === 0
      ? {}
      : { cpuMicrosPerRequest: perRequest(cpuAfter - cpuBefore) }),
    ...(appMillis === undefined || result.requests.total === 0 ? {} : { cpuMicrosPerRequest: perRequest(appMillis) }),
    ...(databaseMillis === undefined || result.requests.total === 0
      ? {}
      : { databaseCpuMicrosPerRequest: perRequest(databaseMillis) }),
  };
}

/** The nearest-rank percentile of response times, in ms to a tenth. */
function percentile(times: number[], p: number): number {
  if (times.length === 0) return 0;
  const sorted = Float64Array.from(times).sort();
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

/** CPU time (ms) of each of the processes that still run. */
function cpuByProcess(pids: number[]): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      cpu.set(pid, cpuMillis(pid));
    } catch {
      // Ended since it was listed: nothing to read.
    }
  }
  return cpu;
}

/**
 * The CPU time the processes used between two readings: a process that started in between counts
 * whole; one that ended in between is lost (its time cannot be read any more).
 */
function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let millis = 0;
  for (const [pid, now] of after) millis += now - (before.get(pid) ?? 0);
  return millis;
}

/** The parent pid of a process, from /proc/<pid>/stat. */
function parentPid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** A process and all its descendants (a cluster's primary and its workers), from /proc/<pid>/task/<tid>/children. */
export function processTree(pid: number): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    const current = found[i]!;
    try {
      for (const task of readdirSync(`/proc/${current}/task`))
        for (const child of readFileSync(`/proc/${current}/task/${task}/children`, 'utf8').split(' '))
          if (child.trim() !== '') found.push(Number(child));
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}

/**
 * The Postgres server processes that serve `database`: the postmaster's children whose process
 * title (`postgres: <user> <database> <client> <state>`) names it. The postmaster is the parent of
 * the backend that answers `pg_backend_pid()` on a connection of `url`.
 */
export async function postgresBackends(url: string): Promise<() => number[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  let postmaster: number;
  try {
    // Read while the connection is open: its backend ends with it.
    postmaster = parentPid(
      Number((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid),
    );
  } finally {
    await client.end();
  }
  const database = new URL(url).pathname.slice(1);
  return () =>
    processTree(postmaster)
      .slice(1)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(' ')[2] === database;
        } catch {
          return false;
        }
      });
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
export function cpuMillis(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

export function printTable(title: string, rows: Measurement[]): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(`| case | req/s | p50 ms | p99 ms | non-2xx | errors |\n|---|---:|---:|---:|---:|---:|\n`);
  for (const r of rows)
    process.stdout.write(
      `| ${r.name} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${r.errors} |\n`,
    );
}

export function saveResults(name: string, results: unknown): void {
  const folder = join(__dirname, '..', 'results');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
}

/** Peak resident set size of a process in MB (VmHWM, the kernel's "high water mark"). */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** A migrated database with one brand, user, app and token (every scope); returns the headers an integration sends. */
export async function seedIntegrator(
  databaseUrl: string,
): Promise<{ brandId: number; userId: number; appId: number; headers: Record<string, string> }> {
  const storage = await openStorage(databaseUrl);
  await storage.migrate();
  const deps = { uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher };
  const brand = await createBrand(deps, { name: 'Bench brand', currency: 'EUR' });
  const user = await createUser(deps, { brandId: brand.id, email: 'bench@example.com', name: 'Bench' });
  const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'Bench app' });
  const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
  await storage.close();
  return {
    brandId: brand.id,
    userId: user.id,
    appId: app.id,
    headers: {
      authorization: `Bearer ${accessToken}`,
      'x-service-app-key': appKey,
      'content-type': 'application/json',
    },
  };
}

/** Customers `C0000001`… with one address each, synced into the brand through the sync use case, 1,000 per call. */
export async function seedCustomers(databaseUrl: string, brandId: number, count: number): Promise<void> {
  const storage = await openStorage(databaseUrl);
  const deps = { uow: storage.uow, clock: systemClock };
  try {
    for (let offset = 0; offset < count; offset += 1000) {
      const batch: CustomerSyncItem[] = Array.from({ length: Math.min(1000, count - offset) }, (_, i) => {
        const n = offset + i + 1;
        return {
          customerNumber: `C${String(n).padStart(7, '0')}`,
          name: `Customer ${n}`,
          currency: 'EUR',
          email: `c${n}@example.com`,
          addresses: {
            mode: 'replace',
            key: 'address_title',
            addresses: [
              {
                title: 'Main',
                name: `Customer ${n}`,
                address: `Street ${n}`,
                address2: null,
                zip: '1000 AA',
                city: 'Amsterdam',
                region: null,
                country: 'NL',
                remoteErpId: null,
              },
            ],
          },
        };
      });
      await syncCustomers(deps, { brandId, customers: batch });
    }
  } finally {
    await storage.close();
  }
}

/** A copy of a SQLite database (its WAL included) in a fresh temporary folder, so that servers start from the same data. */
export async function copyDatabase(source: string, name: string): Promise<string> {
  const target = tempDatabasePath(name);
  const db = new BetterSqlite3(source, { fileMustExist: true });
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
  return target;
}

/** POSTs JSON and returns the parsed answer; anything but 2xx throws with the body. */
export async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

/** What the order benches order from: variants (5 sizes per product), stock per variant, customers C1… */
export interface Shop {
  variants: number;
  customers: number;
  stockPerVariant: number;
}

const SIZES = ['XS', 'S', 'M', 'L', 'XL'];

/**
 * Catalog (EUR prices, stock), customers at 10 % discount and a B2B channel, through the API
 * itself; returns the channel's public id.
 */
export async function seedShop(baseUrl: string, headers: Record<string, string>, shop: Shop): Promise<string> {
  for (let from = 0; from < shop.variants / 5; from += 100) {
    const products = Array.from({ length: Math.min(100, shop.variants / 5 - from) }, (_, i) => {
      const n = from + i + 1;
      return {
        item_number: `P${n}`,
        name: `Product ${n}`,
        variants: SIZES.map((size) => ({
          sku: `P${n}-${size}`,
          attributes: { size },
          prices: { EUR: { sales_price: 19.99, rec_sales_price: 49.95 } },
          inventory: [{ quantity: shop.stockPerVariant }],
        })),
      };
    });
    await postJson(`${baseUrl}/products/sync`, headers, { products });
  }
  const customers = Array.from({ length: shop.customers }, (_, i) => ({
    customer_number: `C${i + 1}`,
    name: `Customer ${i + 1}`,
    currency: 'EUR',
    discount_percentage: 10,
  }));
  await postJson(`${baseUrl}/customers/sync`, headers, { customers });
  const channel = (await postJson(`${baseUrl}/v10/order-channels`, headers, { name: 'ERP', order_type: 'b2b' })) as {
    order_channel: { public_id: string };
  };
  return channel.order_channel.public_id;
}

/** An order body of the shop: a random customer and 3 random distinct variants (a different order every call). */
export function randomOrder(shop: Shop): string {
  const picked = new Set<number>();
  while (picked.size < 3) picked.add(Math.floor(Math.random() * shop.variants));
  const lines = [...picked].map((v) => ({ sku: `P${Math.floor(v / 5) + 1}-${SIZES[v % 5]}`, quantity: 1 + (v % 3) }));
  return JSON.stringify({
    order: { customer_number: `C${1 + Math.floor(Math.random() * shop.customers)}`, reference: 'bench', lines },
  });
}

/** The middle of the values (the mean of the two middle ones for an even count). */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const WITH_POSTGRES = join(__dirname, '..', '..', 'tooling', 'scripts', 'with-postgres.sh');

/**
 * Runs a Postgres benchmark's `main`: against TEST_POSTGRES_URL when it is set, otherwise by
 * running `script` (the benchmark's own file) again inside tooling/scripts/with-postgres.sh, so a
 * throwaway server lives exactly as long as the run.
 */
export function runOnPostgres(main: () => Promise<void>, script: string): void {
  if (process.env.TEST_POSTGRES_URL) {
    main().catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
    return;
  }
  const run = spawnSync('bash', [WITH_POSTGRES, process.execPath, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

/** A fresh database of the dialect for one case: a SQLite file, or a new database on the throwaway Postgres. */
export async function freshDatabase(
  dialect: 'sqlite' | 'postgres',
  name: string,
): Promise<{ url: string; close(): Promise<void> }> {
  if (dialect === 'sqlite') return { url: tempDatabasePath(name), close: async () => undefined };
  const storage = await openTestStorage('postgres');
  return { url: storage.url, close: () => storage.close() };
}

/**
 * The dialects a two-dialect bench measures: SQLite alone without a Postgres server, else both, or
 * Postgres alone with `BENCH_DIALECTS=postgres`.
 */
export function benchDialects(): ('sqlite' | 'postgres')[] {
  if (!process.env.TEST_POSTGRES_URL) return ['sqlite'];
  return process.env.BENCH_DIALECTS === 'postgres' ? ['postgres'] : ['sqlite', 'postgres'];
}
