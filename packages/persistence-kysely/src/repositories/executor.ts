import { Kysely } from 'kysely';
import { Database } from '../database';
import { Dialect } from '../storage';

/** What every repository is built on: a connection or a transaction, and the dialect it speaks. */
export interface Executor {
  db: Kysely<Database>;
  dialect: Dialect;
}

export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: number | boolean): boolean => value === true || value === 1;
