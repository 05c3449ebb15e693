import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  Kysely,
  LogConfig,
  LogEvent,
  PostgresDialect,
  QueryCompiler,
  SqliteDialect,
  SqliteDialectConfig,
  SqliteDriver,
  SqliteQueryCompiler,
} from 'kysely';
import { Pool, types } from 'pg';
import { brandScopedPool } from './brand-session';
import { Database } from './database';
import { SqliteLane } from './sqlite-lane';
import { Dialect, StatementObserver } from './storage';

// Postgres returns int8 (bigint) and numeric as strings; every id and amount we store fits in a
// JS safe integer, so read them as numbers and keep the entities dialect-free.
types.setTypeParser(20, (value) => Number(value));
types.setTypeParser(1700, (value) => Number(value));

/**
 * SQLite's plain BEGIN takes the write lock only at the first write, so two processes that both
 * read first deadlock on upgrade. BEGIN IMMEDIATE takes it up front; other writers wait
 * (busy_timeout) instead of failing.
 */
class ImmediateTransactionSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.transactionsOnLane) this.lane.run('begin immediate', []);
    else await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /** Set when the connection's last use ended a transaction (COMMIT or ROLLBACK). */
  private transactionEnded = false;

  /**
   * better-sqlite3 answers synchronously, so without this a queue of waiting transactions would
   * run one after another in a single turn of the event loop, and requests arriving meanwhile
   * would sit unread in their sockets for as long as the queue takes (under load, long after
   * the server's own timings say the requests were answered). Handing the connection on only after I/O had its turn
   * keeps waiting fair between requests already inside the server and new ones.
   *
   * Only a transaction's end waits: a standalone statement (a read, a counter) holds the
   * connection only briefly, and making every one of them wait for the next turn of the event
   * loop cost a request of five reads five turns, which slowed a one-row list markedly.
   */
  override async releaseConnection(): Promise<void> {
    if (this.transactionEnded) {
      this.transactionEnded = false;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await super.releaseConnection();
    // Straight to the longest waiting one, which stays marked as holding it (the lane keeps away).
    const next = this.waiting.shift();
    if (next) next();
    else this.lane.held = false;
  }

  /**
   * Who waits for the connection, first come first served. The query builder's own lock wakes
   * every waiter on each release and all but one go back to sleep: with 50 requests waiting, an
   * order's release cost some fifty wake-ups and their promises. Waiting here instead, at most
   * one caller at a time reaches that lock, and finds it free.
   */
  private readonly waiting: (() => void)[] = [];

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.lane.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.lane.held = true;
    return super.acquireConnection();
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.transactionEnded = true;
    if (this.transactionsOnLane) this.lane.run('commit', []);
    else await super.commitTransaction(connection);
  }

  constructor(
    private readonly database: CachedStatementsDatabase,
    private readonly lane: SqliteLane,
    /** BEGIN, COMMIT and ROLLBACK on the lane too, unless a query log must see them pass the query builder. */
    private readonly transactionsOnLane: boolean,
    settings: SqliteDialectConfig,
  ) {
    super(settings);
  }

  /**
   * SQLite rolls a transaction back by itself after some failures (SQLITE_FULL, SQLITE_IOERR, …);
   * a ROLLBACK then fails with "cannot rollback - no transaction is active", and Kysely would
   * throw that instead of the error that caused it.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.transactionEnded = true;
    if (!this.database.inTransaction) return;
    if (this.transactionsOnLane) this.lane.run('rollback', []);
    else await super.rollbackTransaction(connection);
  }
}

/**
 * Writes each parameter as `+?` instead of `?`. SQLite (built with STAT4, as better-sqlite3 is)
 * lets the query planner look at a bare parameter's value when a statement compares an indexed
 * column with it and orders by an index: `where "brand_id" = ? order by "id"`. Such a statement
 * is then marked to be compiled again whenever that parameter is bound, which better-sqlite3
 * does on every run (an empty webhook endpoint list, a customer list page), each time paying
 * for a compilation. `+?` is the same value (unary plus changes neither value, type nor affinity) that
 * the planner does not look into; the plans stay the same (the same index, the same range).
 */
class StablePlanSqliteQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}

class ImmediateTransactionSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig & { database: CachedStatementsDatabase },
    private readonly lane: SqliteLane,
    private readonly transactionsOnLane: boolean,
  ) {
    super(settings);
  }

  override createQueryCompiler(): QueryCompiler {
    return new StablePlanSqliteQueryCompiler();
  }

  override createDriver(): Driver {
    return new ImmediateTransactionSqliteDriver(
      this.settings.database,
      this.lane,
      this.transactionsOnLane,
      this.settings,
    );
  }
}

/** Prepared statements kept per connection; syncs repeat the same few (large) statements per request. */
const STATEMENT_CACHE_SIZE = 200;

/**
 * better-sqlite3 compiles the SQL of every `prepare` call again, and Kysely prepares each query it
 * runs: for the multi-row inserts of a sync (thousands of placeholders) that compilation costs
 * about as much as running them. This keeps the most recently used statements (an LRU keyed by
 * the SQL text; only statements, never data) and hands them out again. A statement still busy
 * (a stream being read) is not shared: a fresh one is prepared instead. SQLite re-prepares a
 * cached statement itself when the schema changed.
 */
type CachedStatementsDatabase = SqliteDialectConfig['database'] & { readonly inTransaction: boolean };

function withStatementCache(sqlite: BetterSqlite3.Database): CachedStatementsDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    get inTransaction() {
      return sqlite.inTransaction;
    },
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      const cached = statements.get(sql);
      if (cached) {
        if (cached.busy) return sqlite.prepare(sql);
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

export interface ParsedDatabaseUrl {
  dialect: Dialect;
  /** File path or ':memory:' for SQLite, the connection string for Postgres. */
  location: string;
}

/**
 * Reads `DATABASE_URL`: `postgres://…` / `postgresql://…`, `sqlite:<path>`, `:memory:`, or a bare
 * file path (SQLite).
 */
export function parseDatabaseUrl(url: string): ParsedDatabaseUrl {
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', location: url };
  if (url.startsWith('sqlite:'))
    return { dialect: 'sqlite', location: url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') || ':memory:' };
  return { dialect: 'sqlite', location: url };
}

export interface ConnectionOptions {
  /**
   * Postgres connections per process and kind: a process keeps two pools of this size, one for
   * statements that act for no brand (and every transaction), one for those that act for a brand
   * outside a transaction (brand-session.ts), so it may hold up to twice this many connections.
   */
  poolSize?: number;
  /** Kysely's query log (tests count statements with it). */
  log?: LogConfig;
  /**
   * Told of every statement after it ran (tracing). Unlike `log` it keeps SQLite's lane, which
   * tells it of the statements it runs itself.
   */
  observeStatements?: StatementObserver;
  /**
   * Told of connection-level errors that no query is waiting for (the server restarted under an
   * idle or checked-out Postgres client). Such errors never end the process; this only reports them.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * An in-memory SQLite database starts as a copy of this serialized database (`Database#serialize`)
   * instead of empty: the tests' migrated template (testing/test-storage.ts). Ignored for files and Postgres.
   */
  sqliteImage?: Buffer;
  /** How long a statement waits for a lock before the storage counts as busy: Postgres `lock_timeout`, SQLite `busy_timeout` (default 10 s); tests shorten it. */
  lockTimeoutMs?: number;
}

/** How long a request waits for a Postgres connection before it answers 503 instead of hanging. */
const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;

/**
 * How long a statement waits for a lock (a Postgres row or table lock, SQLite's write lock)
 * before it fails and answers 503: a transaction that hangs while holding locks makes the
 * requests behind it fail cleanly instead of piling up for ever.
 */
const LOCK_TIMEOUT_MS = 10_000;

/**
 * A Postgres pool that survives the server going away. node-postgres emits `error` on a client
 * whose connection breaks, and an `error` event without a listener ends the process. The pool
 * listens on idle clients only (and drops that listener while a client is checked out), so a
 * restart under a transaction killed every API process. Every client therefore gets a listener
 * of its own when it connects; the broken client is not queryable any more, its pending and
 * later queries fail (and answer 503), and the pool discards it on release and connects anew.
 */
function resilientPool(location: string, options: ConnectionOptions): Pool {
  const pool = new Pool({
    connectionString: location,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    lock_timeout: options.lockTimeoutMs ?? LOCK_TIMEOUT_MS,
  });
  pool.on('connect', (client) => client.on('error', (error: Error) => options.onConnectionError?.(error)));
  // The pool re-emits an idle client's error; the client's own listener has reported it already.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The query builder's log: the given one, and the statement observer told of each statement it
 * runs. None when neither is asked for, so the builder adds no logging to its connections.
 */
function queryLog(options: ConnectionOptions): LogConfig | undefined {
  const { log, observeStatements: observe } = options;
  if (observe === undefined) return log;
  if (log !== undefined && typeof log !== 'function')
    throw new Error('a statement observer combines only with a query log given as a function');
  return async (event: LogEvent) => {
    observe(event.query.sql, event.queryDurationMillis, event.level === 'error' ? event.error : undefined);
    await log?.(event);
  };
}

/**
 * The read-only second connection to a SQLite file (sqlite-lane.ts, `committedReads`). In WAL mode
 * a reader sees the last committed state while the first connection writes, and neither waits.
 */
function committedReadsConnection(location: string, options: ConnectionOptions): BetterSqlite3.Database {
  const reader = new BetterSqlite3(location, { readonly: true });
  reader.pragma(`busy_timeout = ${Math.trunc(options.lockTimeoutMs ?? LOCK_TIMEOUT_MS)}`);
  return reader;
}

export function connect(parsed: ParsedDatabaseUrl, options: ConnectionOptions = {}): Kysely<Database> {
  return openConnection(parsed, options).db;
}

/**
 * The query builder on a new connection (SQLite) or pool (Postgres), and on SQLite the lane that
 * runs compiled statements on the same connection without the builder's executor (sqlite-lane.ts).
 * No lane when a query log is asked for: every statement must then pass the builder, which logs.
 * A statement observer keeps the lane: both the builder's log and the lane tell it.
 * The SQLite handle itself comes along for what only it can do (the online backup).
 */
export function openConnection(
  parsed: ParsedDatabaseUrl,
  options: ConnectionOptions = {},
): { db: Kysely<Database>; lane: SqliteLane | undefined; sqlite: BetterSqlite3.Database | undefined } {
  if (parsed.dialect === 'postgres') {
    const pools = {
      unscoped: resilientPool(parsed.location, options),
      scoped: resilientPool(parsed.location, options),
    };
    const log = queryLog(options);
    const db = new Kysely<Database>({
      // Clients come out with the brand of the call chain set, for row-level security (brand-session.ts).
      dialect: new PostgresDialect({ pool: brandScopedPool(pools) }),
      ...(log ? { log } : {}),
    });
    return { db, lane: undefined, sqlite: undefined };
  }
  const sqlite =
    options.sqliteImage !== undefined && parsed.location === ':memory:'
      ? new BetterSqlite3(options.sqliteImage)
      : new BetterSqlite3(parsed.location);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${Math.trunc(options.lockTimeoutMs ?? LOCK_TIMEOUT_MS)}`);
  const database = withStatementCache(sqlite);
  const lane = new SqliteLane(sqlite, options.observeStatements);
  if (!sqlite.memory && !options.log)
    lane.committedReads = new SqliteLane(committedReadsConnection(parsed.location, options), options.observeStatements);
  const log = queryLog(options);
  const db = new Kysely<Database>({
    dialect: new ImmediateTransactionSqliteDialect({ database }, lane, !options.log),
    ...(log ? { log } : {}),
  });
  return { db, lane: options.log ? undefined : lane, sqlite };
}
