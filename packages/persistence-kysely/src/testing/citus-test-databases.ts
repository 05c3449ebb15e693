import { Client } from 'pg';
import { readCitusDistribution } from '../citus-distribution';
import { openStorage } from '../open-storage';
import { withAdminClient, withDatabase } from './postgres-admin';

/**
 * Test databases on a Citus cluster (`pnpm test:citus`, tooling/scripts/citus/): the workers'
 * superuser URLs come in `TEST_CITUS_WORKER_ADMIN_URLS` (comma-separated); without them the test
 * server is a single Postgres and none of this runs.
 *
 * A database of a Citus cluster is one database of the same name on every node, the coordinator's
 * holding the distribution's metadata and the workers' the shards. So the template is built once
 * (extension on every node, workers added, migrated as the app's role, distributed with
 * `citus-ddl`'s statements), and a test database is a file copy of it made on every node under one
 * name: the copies are a cluster as consistent as the template, at a fraction of a build's cost.
 * Citus's background workers connect to every database that has the extension; a template must
 * have no connections when it is copied, so it is closed to connections once built.
 */
export function citusWorkerAdminUrls(): string[] {
  return (process.env.TEST_CITUS_WORKER_ADMIN_URLS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}

/** Whether the test server is a Citus cluster's coordinator (`pnpm test:citus`). */
export const onCitusTestCluster = (): boolean => citusWorkerAdminUrls().length > 0;

interface Cluster {
  /** The coordinator's superuser URL (any database). */
  coordinator: string;
  workers: string[];
  /** The role the app connects as, owner of every test database. */
  appRole: string;
  /** The app's URL (any database). */
  appUrl: string;
}

const nodesOf = (cluster: Cluster) => [cluster.coordinator, ...cluster.workers];

/**
 * Runs `statement` (a drop or a rename of `database`) once no session is connected to it: the
 * database is closed to connections, then its sessions are ended, Citus's maintenance daemon
 * among them (`drop … with (force)` ends client sessions only), a few times, since the daemon may
 * be between two connections.
 */
async function whenAlone(admin: Client, database: string, statement: string): Promise<void> {
  await admin.query(`alter database ${database} allow_connections false`);
  for (let attempt = 1; ; attempt++) {
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database]);
    try {
      await admin.query(statement);
      return;
    } catch (error) {
      if (attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

async function buildTemplate(cluster: Cluster, template: string): Promise<void> {
  const building = `${template}_building`;
  for (const node of nodesOf(cluster))
    await withAdminClient(node, async (admin) => {
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building} owner ${cluster.appRole}`);
    });
  for (const node of nodesOf(cluster))
    await withAdminClient(withDatabase(node, building), (admin) => admin.query('create extension citus'));
  await withAdminClient(withDatabase(cluster.coordinator, building), async (admin) => {
    const coordinator = new URL(cluster.coordinator);
    await admin.query('select citus_set_coordinator_host($1, $2)', [coordinator.hostname, Number(coordinator.port)]);
    for (const worker of cluster.workers) {
      const url = new URL(worker);
      await admin.query('select citus_add_node($1, $2)', [url.hostname, Number(url.port)]);
    }
  });
  const storage = await openStorage(withDatabase(cluster.appUrl, building));
  try {
    await storage.migrate();
  } finally {
    await storage.close();
  }
  const { statements } = await readCitusDistribution(withDatabase(cluster.coordinator, building));
  await withAdminClient(withDatabase(cluster.coordinator, building), async (admin) => {
    // Few shards: the tests hold little data, and every shard is a table on a worker to copy.
    await admin.query('set citus.shard_count = 4');
    for (const statement of statements) await admin.query(statement);
  });
  // The coordinator last: its template's name is what says the build is complete.
  for (const node of [...cluster.workers, cluster.coordinator])
    await withAdminClient(node, async (admin) => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await whenAlone(admin, building, `alter database ${building} rename to ${template}`);
    });
}

/** Any fixed key: it only has to keep two test processes from building the template at once. */
const CITUS_TEMPLATE_LOCK_KEY = 7_341_020_613;

/**
 * Creates `database` on every node of the cluster as a copy of `template`, building the template
 * first when the coordinator has none.
 */
export async function createCitusTestDatabase(
  appUrl: string,
  coordinatorAdminUrl: string,
  template: string,
  database: string,
): Promise<void> {
  const cluster: Cluster = {
    coordinator: withDatabase(coordinatorAdminUrl, 'postgres'),
    workers: citusWorkerAdminUrls().map((url) => withDatabase(url, 'postgres')),
    appRole: new URL(appUrl).username,
    appUrl,
  };
  await withAdminClient(cluster.coordinator, async (admin) => {
    await admin.query('select pg_advisory_lock($1)', [CITUS_TEMPLATE_LOCK_KEY]);
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (found.rowCount === 0) await buildTemplate(cluster, template);
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [CITUS_TEMPLATE_LOCK_KEY]);
    }
  });
  for (const node of nodesOf(cluster))
    await withAdminClient(node, (admin) =>
      admin.query(`create database ${database} owner ${cluster.appRole} template ${template} strategy file_copy`),
    );
}

/** Drops `database` on every node of the cluster. */
export async function dropCitusTestDatabase(coordinatorAdminUrl: string, database: string): Promise<void> {
  for (const node of [coordinatorAdminUrl, ...citusWorkerAdminUrls()])
    await withAdminClient(withDatabase(node, 'postgres'), async (admin) => {
      const found = await admin.query('select 1 from pg_database where datname = $1', [database]);
      if (found.rowCount !== 0) await whenAlone(admin, database, `drop database ${database} with (force)`);
    });
}
