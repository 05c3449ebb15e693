import { ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createApiApp, createBrand, createUser, issueAccessToken, systemClock } from '@brand/core';
import { openStorage } from '@brand/persistence-kysely';
import { nodeSecretHasher } from '@brand/api';

/** One measured load: requests per second (mean) and latency percentiles in milliseconds. */
export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export function tempDatabasePath(name: string): string {
  return join(mkdtempSync(join(tmpdir(), `brand-bench-${name}-`)), 'bench.sqlite');
}

/** Starts bench-server.js in a child process and resolves once it listens. */
export async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const child = fork(join(__dirname, 'bench-server.js'), [], {
    env: { ...process.env, ...env, PORT: port },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
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

/** Drives one URL with autocannon for `seconds` after a short warm-up (`requests` shapes POSTs, e.g. a fresh body per request). */
export async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  options: { connections?: number; seconds?: number; warmupSeconds?: number; requests?: autocannon.Request[] } = {},
): Promise<Measurement> {
  const connections = options.connections ?? 16;
  const shape = options.requests ? { requests: options.requests } : {};
  await autocannon({ url, headers, connections, duration: options.warmupSeconds ?? 2, ...shape });
  const result = await autocannon({ url, headers, connections, duration: options.seconds ?? 10, ...shape });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
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
): Promise<{ brandId: number; userId: number; headers: Record<string, string> }> {
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
    headers: {
      authorization: `Bearer ${accessToken}`,
      'x-service-app-key': appKey,
      'content-type': 'application/json',
    },
  };
}
