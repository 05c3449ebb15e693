/**
 * Issue 15 benchmark: several API workers on one Postgres. The real server (`apps/api/dist/server.js`,
 * what `pnpm start` runs) serves a throwaway Postgres holding one integrator and 1,000 customers,
 * first as one process (WEB_CONCURRENCY=1, the default), then as a primary with two workers
 * (WEB_CONCURRENCY=2). Each is driven with the authenticated one-row list
 * `GET /v10/customers?limit=1` (token check, rate-limit counter, request log, one row) from 50
 * connections; prints req/s, p50 and p99 and the ratio 2 workers ÷ 1 worker.
 *
 * Without TEST_POSTGRES_URL it runs itself again inside tooling/scripts/with-postgres.sh.
 */
import { availableParallelism } from 'node:os';
import { openTestStorage } from '@brand/persistence-kysely/testing';
import {
  Measurement,
  measure,
  printTable,
  saveResults,
  seedCustomers,
  seedIntegrator,
  startApiProcesses,
  runOnPostgres,
  stopApiProcesses,
} from './harness';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

async function measureWith(
  databaseUrl: string,
  workers: number,
  headers: Record<string, string>,
): Promise<Measurement> {
  const api = await startApiProcesses(databaseUrl, workers);
  try {
    const name = `${workers} worker${workers === 1 ? ' (one process, no primary)' : 's'}`;
    const result = await measure(name, `${api.baseUrl}/v10/customers?limit=1`, headers, {
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${name}: ${result.non2xx} answers were not 2xx and ${result.errors} failed`);
    return result;
  } finally {
    await stopApiProcesses(api);
  }
}

async function main(): Promise<void> {
  const database = await openTestStorage('postgres');
  try {
    const { brandId, headers } = await seedIntegrator(database.url);
    await seedCustomers(database.url, brandId, CUSTOMERS);
    const one = await measureWith(database.url, 1, headers);
    const two = await measureWith(database.url, 2, headers);
    printTable(
      `GET /v10/customers?limit=1 on Postgres with ${CUSTOMERS} customers (${SECONDS} s per case, ${CONNECTIONS} connections, ${availableParallelism()} CPUs)`,
      [one, two],
    );
    const ratio = +(two.requestsPerSecond / one.requestsPerSecond).toFixed(2);
    process.stdout.write(`\n2 workers ÷ 1 worker = ${ratio} (req/s)\n`);
    saveResults('workers', {
      customers: CUSTOMERS,
      seconds: SECONDS,
      connections: CONNECTIONS,
      cpus: availableParallelism(),
      measurements: [one, two],
      ratio,
    });
  } finally {
    await database.close();
  }
}

runOnPostgres(main, __filename);
