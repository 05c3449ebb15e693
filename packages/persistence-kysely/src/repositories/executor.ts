import { Repositories } from '@brand/core';
import { Kysely } from 'kysely';
import { Database } from '../database';
import { Dialect } from '../storage';

/** What every repository is built on: a connection or a transaction, and the dialect it speaks. */
export interface Executor {
  db: Kysely<Database>;
  dialect: Dialect;
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
