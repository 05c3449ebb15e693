import { Repositories } from '@brand/core';
import { CompiledQuery, Kysely, QueryResult } from 'kysely';
import { Database } from '../database';
import { SqliteLane } from '../sqlite-lane';
import { Dialect } from '../storage';

/** What every repository is built on: a connection or a transaction, and the dialect it speaks. */
export interface Executor {
  db: Kysely<Database>;
  dialect: Dialect;
  /** On SQLite (without a query log): the connection's lane for compiled statements (sqlite-lane.ts). */
  lane?: SqliteLane | undefined;
}

/**
 * SQLite's lane on which a statement may run now: inside the executor's transaction, or while
 * nobody holds the connection, the connection's own. While a transaction holds it, a read runs on
 * the second connection's lane (`committedReads`), which sees what was committed: before this
 * the read waited for the transaction to end, so a token check or a list queued behind every
 * order being placed. A write, or a read without that second connection (an in-memory
 * database), takes the query builder's way, which waits for the connection.
 */
function laneNow({ db, lane }: Executor, sql: string): SqliteLane | undefined {
  if (lane === undefined || !lane.held || db.isTransaction) return lane;
  const committed = lane.committedReads;
  return committed !== undefined && committed.readsOnly(sql) === true ? committed : undefined;
}

/** Runs a compiled statement on the executor: on a SQLite lane when it may (`laneNow`), else through the query builder. */
export async function execute<R>(executor: Executor, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  const lane = laneNow(executor, query.sql);
  return lane ? lane.run<R>(query.sql, query.parameters) : executor.db.executeQuery(query);
}

/**
 * `execute` for SQL written as text (bulk inserts, id draws): on the lane no compiled query is
 * made at all (the query builder's `CompiledQuery.raw` makes a node, a query id and freezes the
 * parameters, for every statement).
 */
export async function executeText<R>(
  executor: Executor,
  sql: string,
  parameters: readonly unknown[],
): Promise<QueryResult<R>> {
  const lane = laneNow(executor, sql);
  return lane
    ? lane.run<R>(sql, parameters)
    : executor.db.executeQuery<R>(CompiledQuery.raw(sql, parameters as unknown[]));
}

/**
 * How a module's repositories are made for one connection or transaction: one factory for each
 * repository of the module's set `M` (its `CustomerRepositories`, say), no more and no fewer, so
 * a repository added to the module's ports does not compile until it is made here too. `bound`
 * is the whole binding, for the few repositories that draw ids through it.
 */
export type RepositoryFactories<M> = {
  [K in keyof M]-?: (executor: Executor, bound: Repositories) => M[K];
};

export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: number | boolean): boolean => value === true || value === 1;
