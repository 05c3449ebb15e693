import { ResourceLockRepositories, ResourceLocks } from '@brand/core';
import { executeText, Executor, RepositoryFactories } from './executor';

/**
 * A transaction-scoped advisory lock keyed by the brand and a hash of the resource's path: it
 * touches no table, so it costs no row lock and no write, and it ends with the transaction. Two
 * resources whose paths hash alike merely wait for each other.
 */
const HOLD_POSTGRES_RESOURCE = 'select pg_advisory_xact_lock($1::int4, hashtext($2)) as held';

export function resourceLocks(executor: Executor): ResourceLocks {
  return {
    async hold(brandId, resource) {
      // SQLite runs one writing transaction at a time (`begin immediate`): whoever holds the
      // transaction already holds every resource.
      if (executor.dialect !== 'postgres') return;
      if (!executor.db.isTransaction) throw new Error('a resource lock is held by a transaction; none is open');
      await executeText(executor, HOLD_POSTGRES_RESOURCE, [brandId, resource]);
    },
  };
}

export const resourceLockRepositoryFactories: RepositoryFactories<ResourceLockRepositories> = {
  resourceLocks: (executor) => resourceLocks(executor),
};
