import type BetterSqlite3 from 'better-sqlite3';
import { QueryResult } from 'kysely';
import type { StatementObserver } from './storage';

/** Prepared statements the lane keeps (by SQL text); syncs repeat a few large ones per request. */
const KEPT_STATEMENTS = 200;

interface LaneStatement {
  readonly statement: BetterSqlite3.Statement;
  /** Whether it returns rows (a select, or a write with RETURNING). */
  readonly reader: boolean;
  /** Whether it changes nothing (SQLite's own judgement of the compiled statement). */
  readonly readonly: boolean;
  /** Used since the eviction last passed it (the CLOCK algorithm's reference bit). */
  used: boolean;
}

/**
 * Runs already compiled statements on SQLite's one connection straight through better-sqlite3,
 * the way the query builder's driver runs them in the end, without the executor around it.
 *
 * Why: better-sqlite3 answers synchronously, but the query builder hands every statement through
 * five layers of async functions (executor, connection provider, the transaction's queue, the
 * driver's lock, the connection), a handful of promises per statement. Placing an order runs
 * some twenty statements, so that machinery was a real share of the order's CPU time. The statements themselves are unchanged: the same SQL, the same prepared statements.
 *
 * When it may run, decided by `execute` (repositories/executor.ts):
 * - inside a transaction of the query builder, always: the transaction holds the connection, and
 *   its statements run one after another as before;
 * - outside one, only while nobody holds the connection (`held`). Otherwise the statement takes the
 *   query builder's way and waits its turn: run at once, it would read the open transaction's
 *   uncommitted rows on the shared connection.
 */
export class SqliteLane {
  /** Set by the driver (connection.ts) from taking the connection until handing it on. */
  held = false;

  /**
   * A second, read-only connection to the same file, on a lane of its own: where a read outside
   * any transaction runs while this connection is held (`execute`, repositories/executor.ts).
   * None for an in-memory database, which no other connection can open.
   */
  committedReads: SqliteLane | undefined;

  /**
   * Its own statements, apart from the query builder's (connection.ts): the lane runs a statement
   * to its end before it returns, so none of these is ever busy, and a hit costs a map lookup.
   * The builder's cache must ask every hit whether a stream is still reading it (a call into the
   * native module) and reorders its LRU, on every statement.
   */
  private readonly statements = new Map<string, LaneStatement>();

  constructor(
    private readonly sqlite: BetterSqlite3.Database,
    /** Told of every statement the lane runs (tracing); the query builder's log never sees them. */
    private readonly observe?: StatementObserver,
  ) {}

  /** Whether a transaction is open on the connection (SQLite ends one by itself on some failures). */
  get inTransaction(): boolean {
    return this.sqlite.inTransaction;
  }

  /**
   * Whether `sql` only reads (prepared here, and kept, to ask SQLite); undefined when it cannot be
   * prepared here (a table a migration is creating in a transaction not yet committed).
   */
  readsOnly(sql: string): boolean | undefined {
    try {
      return this.prepared(sql).readonly;
    } catch {
      return undefined;
    }
  }

  /** Closes the lane's connection (the committed-reads lane's own; the first connection's is the query builder's to close). */
  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }

  /** The query builder's `QueryResult` of one statement, as its SQLite driver makes it. */
  run<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> {
    if (this.observe === undefined) return this.runStatement(sql, parameters);
    const startedAt = performance.now();
    try {
      const result = this.runStatement<R>(sql, parameters);
      this.observe(sql, performance.now() - startedAt);
      return result;
    } catch (error) {
      this.observe(sql, performance.now() - startedAt, error);
      throw error;
    }
  }

  private runStatement<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> {
    const { statement, reader } = this.prepared(sql);
    if (reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
      insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
      rows: [],
    };
  }

  private prepared(sql: string): LaneStatement {
    let kept = this.statements.get(sql);
    if (kept !== undefined) {
      kept.used = true;
      return kept;
    }
    const statement = this.sqlite.prepare(sql);
    kept = { statement, reader: statement.reader, readonly: statement.readonly, used: false };
    this.statements.set(sql, kept);
    if (this.statements.size > KEPT_STATEMENTS) this.evictOne();
    return kept;
  }

  /**
   * CLOCK eviction: from the oldest, statements used since the last pass get a second chance
   * (moved to the end, mark cleared); the first unused one goes. Near an LRU, without moving
   * every hit.
   */
  private evictOne(): void {
    for (const [sql, kept] of this.statements) {
      this.statements.delete(sql);
      if (!kept.used) return;
      kept.used = false;
      this.statements.set(sql, kept);
    }
  }
}
