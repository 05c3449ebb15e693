import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, QueryResult } from 'kysely';

/** What the lane prepares statements with: the connection's statement cache (connection.ts). */
export interface PreparesStatements {
  prepare(sql: string): BetterSqlite3.Statement;
}

/**
 * Runs already compiled statements on SQLite's one connection straight through better-sqlite3,
 * the way the query builder's driver runs them in the end, without the executor around it.
 *
 * Why: better-sqlite3 answers synchronously, but the query builder hands every statement through
 * five layers of async functions (executor, connection provider, the transaction's queue, the
 * driver's lock, the connection), about 4 µs and a handful of promises per statement. Placing an
 * order runs some twenty statements, so that machinery cost more than a tenth of the order's CPU
 * time. The statements themselves are unchanged: the same SQL, the same prepared statements.
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

  constructor(private readonly statements: PreparesStatements) {}

  /** The query builder's `QueryResult` of one statement, as its SQLite driver makes it. */
  run<R>(query: CompiledQuery): QueryResult<R> {
    const statement = this.statements.prepare(query.sql);
    if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return {
      numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
      insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
      rows: [],
    };
  }
}
