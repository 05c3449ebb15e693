import os from 'node:os';
import { Client } from 'pg';
import { withAdminClient, withDatabase } from './postgres-admin';

/**
 * Postgres test databases emptied and kept for the next test file of the same process instead of
 * dropped and copied again from the template (docs/decisions/tests-and-tooling.md): copying the
 * template is the largest share of the test server's CPU, and emptying the few tables a test file
 * wrote costs a small part of it.
 *
 * Only on the throwaway server of the test command (`TEST_POSTGRES_REUSE_DATABASES=1`), and only a
 * database that is provably as the template left it but for its rows: a test that changed the
 * schema, ran ANALYZE, left a prepared transaction or a large object, or whose connections do not
 * go away, gets its database dropped as before. A kept database takes no connection (it is closed
 * to connections until handed out again), so nothing left running by one file writes into the
 * next one's.
 */
export const reusingTestDatabases = (): boolean => process.env.TEST_POSTGRES_REUSE_DATABASES === '1';

/** The state of a fresh copy of the template that an emptied database must be in again. */
interface PristineState {
  /** Hash of everything but the rows: tables, columns, constraints, indexes, policies, grants... */
  schema: string;
  /** Every table of the schema. */
  tables: string[];
  /** Rows the migrations wrote themselves (the migrations' record, the credentials revision). */
  rows: Record<string, unknown[]>;
  /** Every sequence's state, the ones no table owns included. */
  sequences: { name: string; value: string; called: boolean }[];
}

/**
 * Per process rather than per module registry (hung on a core module, as the SQLite images are):
 * the pool must outlive one test file's registry.
 */
interface ProcessPool {
  pristine?: Promise<PristineState>;
  /** Databases emptied and closed to connections, by the server URL they belong to. */
  idle: Map<string, string[]>;
}
const pool: ProcessPool = ((holder: Record<symbol, unknown>) => {
  const key = Symbol.for('brand.test.reusedPostgresDatabases');
  return (holder[key] ??= { idle: new Map<string, string[]>() }) as ProcessPool;
})(os);

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Everything a test could change in a database besides its rows, as one hash. Statistics count
 * too: a file that ran ANALYZE would leave the planner of the next one estimates it never made.
 */
const SCHEMA_FINGERPRINT = `
  with public_classes as (select * from pg_class where relnamespace = 'public'::regnamespace)
  select md5(string_agg(line, E'\\n' order by line)) as fingerprint,
         (select count(*) from pg_prepared_xacts where database = current_database()) as prepared,
         (select count(*) from pg_largeobject_metadata) as large_objects,
         (select count(*) from pg_statistic where starelid in (select oid from public_classes)) as statistics
  from (
    select format('class %s %s %s %s %s', relname, relkind, relrowsecurity, relforcerowsecurity, relacl) as line
      from public_classes
    union all
    select format('column %s.%s %s %s %s %s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
                  a.attnotnull, a.attisdropped, pg_get_expr(d.adbin, d.adrelid))
      from pg_attribute a
      join public_classes c on c.oid = a.attrelid
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attnum > 0
    union all
    select format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
      from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select format('index %s', pg_get_indexdef(indexrelid))
      from pg_index where indexrelid in (select oid from public_classes)
    union all
    select format('trigger %s %s', tgenabled, pg_get_triggerdef(oid))
      from pg_trigger where not tgisinternal and tgrelid in (select oid from public_classes)
    union all
    select format('policy %s %s %s %s %s', polrelid::regclass, polname, polcmd,
                  pg_get_expr(polqual, polrelid), pg_get_expr(polwithcheck, polrelid))
      from pg_policy where polrelid in (select oid from public_classes)
    union all
    select format('function %s %s', oid::regprocedure, md5(prosrc))
      from pg_proc where pronamespace = 'public'::regnamespace
    union all
    select format('type %s %s', typname, typtype) from pg_type where typnamespace = 'public'::regnamespace
    union all
    select format('enum %s %s', enumtypid::regtype, enumlabel) from pg_enum
    union all
    select format('extension %s %s', extname, extversion) from pg_extension
    union all
    select format('schema %s %s', nspname, nspacl) from pg_namespace
    union all
    select format('setting %s %s', setrole, setconfig) from pg_db_role_setting
      where setdatabase = (select oid from pg_database where datname = current_database())
  ) lines`;

interface Fingerprint {
  fingerprint: string;
  prepared: string;
  large_objects: string;
  statistics: string;
}

/** Reads the state of a fresh copy, once per process, to hold every emptied database to it. */
async function readPristineState(client: Client): Promise<PristineState> {
  const { rows: fingerprint } = await client.query<Fingerprint>(SCHEMA_FINGERPRINT);
  const { rows: tables } = await client.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const names = tables.map((table) => table.name);
  const filled = await nonEmptyTables(client, names);
  const rows: Record<string, unknown[]> = {};
  for (const table of filled) {
    const { rows: content } = await client.query<{ rows: unknown[] }>(
      `select coalesce(json_agg(t), '[]'::json) as rows from ${quote(table)} t`,
    );
    rows[table] = content[0]!.rows;
  }
  const { rows: sequences } = await client.query<{ name: string; value: string; called: boolean }>(
    `select sequencename as name, coalesce(last_value, start_value)::text as value, last_value is not null as called
       from pg_sequences where schemaname = 'public'`,
  );
  return { schema: fingerprint[0]!.fingerprint, tables: names, rows, sequences };
}

async function nonEmptyTables(client: Client, tables: string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const probes = tables.map(
    (table, i) => `select $${i + 1}::text as name where exists (select 1 from ${quote(table)})`,
  );
  const { rows } = await client.query<{ name: string }>(probes.join(' union all '), tables);
  return rows.map((row) => row.name);
}

/**
 * Records what a fresh copy of the template holds, before its first use: the first database a
 * process opens is always a fresh copy.
 */
export async function notePristineDatabase(adminUrl: string, database: string): Promise<void> {
  if (pool.pristine) return;
  pool.pristine = (async () => {
    const client = new Client({ connectionString: withDatabase(adminUrl, database) });
    await client.connect();
    try {
      return await readPristineState(client);
    } finally {
      await client.end();
    }
  })();
  // A failed read is not kept: the next database tries again, and none is reused meanwhile.
  pool.pristine.catch(() => {
    pool.pristine = undefined;
  });
  await pool.pristine.catch(() => undefined);
}

/** An emptied database of this server for a new test file, opened to connections again; or none. */
export async function takeIdleDatabase(adminUrl: string): Promise<string | undefined> {
  const database = pool.idle.get(serverKey(adminUrl))?.pop();
  if (!database) return undefined;
  try {
    await withAdminClient(serverKey(adminUrl), (admin) =>
      admin.query(`alter database ${quote(database)} with allow_connections true`),
    );
    return database;
  } catch {
    // Gone (a test dropped every database it found, say): the caller makes a fresh one.
    return undefined;
  }
}

/**
 * Empties `database` and keeps it for the next test file, or says it cannot be kept (the caller
 * drops it). The database is closed to new connections first and every connection still open (a
 * test's inspecting client, a child process's pool) is ended, as the forced drop did: Postgres
 * refuses to close the database a connection is on to connections, so that is done from the
 * server's maintenance database while the emptying connection is already in.
 */
export async function emptyForReuse(adminUrl: string, database: string): Promise<boolean> {
  const pristine = await pool.pristine?.catch(() => undefined);
  if (!pristine) return false;
  const client = new Client({ connectionString: withDatabase(adminUrl, database) });
  try {
    await client.connect();
    const { rows: own } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    await withAdminClient(serverKey(adminUrl), async (admin) => {
      await admin.query(`alter database ${quote(database)} with allow_connections false`);
      await admin.query(
        `select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = $1 and pid <> $2`,
        [database, own[0]!.pid],
      );
    });
    const kept = await emptyToPristine(client, pristine);
    if (!kept) return false;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
  const key = serverKey(adminUrl);
  pool.idle.set(key, [...(pool.idle.get(key) ?? []), database]);
  return true;
}

/** Brings a database closed to others back to `pristine` in one transaction, or says it cannot. */
async function emptyToPristine(client: Client, pristine: PristineState): Promise<boolean> {
  const { rows: state } = await client.query<Fingerprint>(SCHEMA_FINGERPRINT);
  const now = state[0]!;
  const changed =
    now.fingerprint !== pristine.schema ||
    Number(now.prepared) !== 0 ||
    Number(now.large_objects) !== 0 ||
    Number(now.statistics) !== 0;
  if (changed) return false;
  await client.query('begin');
  const written = await nonEmptyTables(client, pristine.tables);
  if (written.length > 0) await client.query(`truncate ${written.map(quote).join(', ')} restart identity cascade`);
  // The tables the migrations filled are empty here either way (truncated, or emptied by the
  // test) and get the migrations' rows back.
  for (const [table, rows] of Object.entries(pristine.rows)) {
    await client.query(
      `insert into ${quote(table)} overriding system value select * from json_populate_recordset(null::${quote(table)}, $1::json)`,
      [JSON.stringify(rows)],
    );
  }
  // Every sequence, the ones no table owns included (the ids of each kind).
  await client.query(
    `select setval(quote_ident(s.name)::regclass, s.value, s.called)
       from json_to_recordset($1::json) as s(name text, value bigint, called boolean)`,
    [JSON.stringify(pristine.sequences)],
  );
  // A connection that got in before the database was closed to them would write into the next
  // file's database: then it is not kept.
  const { rowCount: others } = await client.query(
    'select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  await client.query(others === 0 ? 'commit' : 'rollback');
  return others === 0;
}

/** The server a URL points at, whatever database it names. */
function serverKey(url: string): string {
  return withDatabase(url, 'postgres');
}
