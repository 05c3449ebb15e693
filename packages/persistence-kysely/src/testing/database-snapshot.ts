import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import { Pool } from 'pg';
import { connect, parseDatabaseUrl } from '../connection';
import { inspectionUrl } from './test-storage';
import { Database } from '../database';
import { openStorage } from '../open-storage';
import { Dialect, Storage } from '../storage';
import { openTestStorage } from './test-storage';

/**
 * Row-level snapshots of a test database, to prove that a request changed nothing (the API's
 * hostile-input suite). They are read over a second connection, so the app's own storage is used
 * exactly as in production.
 */

/**
 * Tables every request may legitimately write (or that move outside any transaction): rate-limit
 * counters, the request log, the cursor signing key made on the first list, SQLite's id counters
 * (Postgres draws ids from sequences, which are no tables), and Kysely's migration bookkeeping.
 */
export const BOOKKEEPING_TABLES: readonly string[] = [
  'rate_limit_counters',
  'request_logs',
  'shared_secrets',
  'id_counters',
  'kysely_migration',
  'kysely_migration_lock',
];

interface Row {
  /** The row as canonical JSON (what two snapshots compare). */
  json: string;
  brandId: number | null;
}

/** The rows of every business table, each table's rows in a stable order. */
export type Snapshot = ReadonlyMap<string, readonly Row[]>;

/**
 * A test storage a second connection can read: Postgres as `openTestStorage` makes it, SQLite in a
 * temporary file instead of memory (an in-memory database is private to its one connection).
 * `close()` also removes the file.
 */
export async function openInspectableTestStorage(dialect: Dialect): Promise<Storage & { url: string }> {
  if (dialect === 'postgres') return openTestStorage(dialect);
  const file = join(tmpdir(), `brand-snapshot-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
  const storage = await openStorage(file);
  await storage.migrate();
  const close = storage.close.bind(storage);
  return Object.assign(storage, {
    url: file,
    async close() {
      await close();
      await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
    },
  });
}

function canonicalRow(row: Record<string, unknown>): Row {
  // Both drivers may hand 64-bit integers over as bigint or numeric text; JSON needs one spelling.
  const json = JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  const brandId = row['brand_id'];
  return { json, brandId: brandId === null || brandId === undefined ? null : Number(brandId) };
}

export class DatabaseSnapshots {
  /** Each table's rows as last read, with the digest they had then (SQLite: their JSON text). */
  private readonly lastRead = new Map<string, { digest: string; rows: Row[] }>();

  private constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly tables: readonly string[],
    /** SQLite: each table's columns, to spell its rows as JSON objects. */
    private readonly columns: ReadonlyMap<string, readonly string[]>,
    /** Postgres: the pool under `db`, which runs the digests as a prepared statement. */
    private readonly pool: Pool | null,
  ) {
    // The query that looks at every table never changes: built and compiled once, not per snapshot.
    this.lookAtEveryTable = (dialect === 'postgres' ? this.digestsQuery() : this.rowsAsJsonQuery()).compile(db);
  }

  private readonly lookAtEveryTable: CompiledQuery<{ name: string; digest?: string; rows?: string }>;

  /** Postgres: a digest per table. */
  private digestsQuery() {
    return sql<{ name: string; digest: string }>`${sql.join(
      this.tables.map(
        (table) =>
          // The name as a literal: a statement without parameters keeps its one generic plan.
          sql`select ${sql.lit(table)} as name, (select coalesce(md5(string_agg(r::text, E'\n' order by r::text)), '') from ${sql.table(table)} r) as digest`,
      ),
      sql` union all `,
    )}`;
  }

  /**
   * SQLite: every table's rows as one JSON text per table (SQLite has no md5, and reading the
   * text, built in C, costs less than parsing it).
   */
  private rowsAsJsonQuery() {
    return sql<{ name: string; rows: string }>`${sql.join(
      this.tables.map((table) => {
        const fields = (this.columns.get(table) ?? []).flatMap((column) => [sql.lit(column), sql.ref(column)]);
        return sql`select ${table} as name, (select json_group_array(json_object(${sql.join(fields)})) from ${sql.table(table)}) as rows`;
      }),
      sql` union all `,
    )}`;
  }

  /** Opens a reading connection to the storage's database and lists its business tables. */
  static async open(storage: Storage & { url: string }): Promise<DatabaseSnapshots> {
    // As the superuser on Postgres: a snapshot reads every brand's rows, which row-level security hides from the app's role.
    const parsed = parseDatabaseUrl(inspectionUrl(storage.url));
    const pool = parsed.dialect === 'postgres' ? new Pool({ connectionString: parsed.location, max: 1 }) : null;
    // An idle connection that breaks makes the pool emit `error`, which would end the test process;
    // the next snapshot's query fails and says so instead.
    pool?.on('error', () => undefined);
    const db = pool
      ? new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
      : connect(parsed, { poolSize: 1 });
    const listed =
      storage.dialect === 'postgres'
        ? await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
            db,
          )
        : await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
    const tables = listed.rows
      .map((row) => row.name)
      .filter((name) => !BOOKKEEPING_TABLES.includes(name))
      .sort();
    const columns = new Map<string, string[]>();
    if (storage.dialect === 'sqlite') {
      for (const table of tables) {
        const info = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
        columns.set(
          table,
          info.rows.map((row) => row.name),
        );
      }
    }
    return new DatabaseSnapshots(db, storage.dialect, tables, columns, pool);
  }

  async take(): Promise<Snapshot> {
    const snapshot = new Map<string, Row[]>();
    if (this.dialect === 'postgres') {
      // A snapshot follows every request: one round trip fetches a digest per table, and only
      // the tables whose digest moved are read again. The digest query is prepared once per
      // connection (a named statement): planned anew for every snapshot, its union of a subquery
      // per table cost the server more CPU to plan than to run, and the write properties take
      // a snapshot after every request.
      const digests = (
        await this.pool!.query<{ name: string; digest: string }>({
          name: 'snapshot-digests',
          text: this.lookAtEveryTable.sql,
        })
      ).rows;
      const moved = digests.filter(({ name, digest }) => this.lastRead.get(name)?.digest !== digest);
      if (moved.length > 0) {
        const selects = moved.map(
          ({ name, digest }) =>
            sql`select ${name} as name, ${digest} as digest, (select coalesce(json_agg(r)::text, '[]') from ${sql.table(name)} r) as rows`,
        );
        const read = await sql<{
          name: string;
          digest: string;
          rows: string;
        }>`${sql.join(selects, sql` union all `)}`.execute(this.db);
        for (const { name, digest, rows } of read.rows)
          this.lastRead.set(name, {
            digest,
            rows: sortRows((JSON.parse(rows) as Record<string, unknown>[]).map(canonicalRow)),
          });
      }
    } else {
      // One round trip reads every table as JSON text; only the tables whose text moved are parsed.
      const read = (await this.db.executeQuery(this.lookAtEveryTable)).rows as { name: string; rows: string }[];
      for (const { name, rows } of read) {
        if (this.lastRead.get(name)?.digest === rows) continue;
        this.lastRead.set(name, {
          digest: rows,
          rows: sortRows((JSON.parse(rows) as Record<string, unknown>[]).map(canonicalRow)),
        });
      }
    }
    for (const table of this.tables) snapshot.set(table, this.lastRead.get(table)?.rows ?? []);
    return snapshot;
  }

  close(): Promise<void> {
    return this.db.destroy();
  }
}

function sortRows(rows: Row[]): Row[] {
  return rows.sort((a, b) => (a.json < b.json ? -1 : a.json > b.json ? 1 : 0));
}

/**
 * What changed between two snapshots, one line per changed table with the rows that appeared and
 * disappeared (a changed row is both); empty when nothing did. `onlyBrand` narrows to one brand's rows.
 */
export function snapshotChanges(before: Snapshot, after: Snapshot, onlyBrand?: number): string[] {
  const changes: string[] = [];
  for (const [table, afterRows] of after) {
    const pick = (rows: readonly Row[]) =>
      (onlyBrand === undefined ? rows : rows.filter((row) => row.brandId === onlyBrand)).map((row) => row.json);
    const was = pick(before.get(table) ?? []);
    const now = pick(afterRows);
    const old = new Set(was);
    const fresh = new Set(now);
    const added = now.filter((row) => !old.has(row));
    const removed = was.filter((row) => !fresh.has(row));
    if (added.length === 0 && removed.length === 0) continue;
    const sample = (rows: string[]) =>
      rows
        .slice(0, 2)
        .map((row) => (row.length > 300 ? `${row.slice(0, 300)}…` : row))
        .join(' ');
    changes.push(
      `${table}: ${added.length} row(s) appeared ${sample(added)}; ${removed.length} row(s) disappeared ${sample(removed)}`.trim(),
    );
  }
  return changes;
}
