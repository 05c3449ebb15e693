import { AsyncLocalStorage } from 'node:async_hooks';
import {
  AmbientContext,
  DomainError,
  Repositories,
  SharedTransaction,
  TransactionMustRestart,
  UnitOfWork,
} from '@brand/core';

const current = new AsyncLocalStorage<SharedTransaction>();

/**
 * The shared transaction of the request being handled, if it opened one (an idempotent write,
 * DESIGN §12; a conditional write, §14): the app's unit of work (`SharingUnitOfWork`) joins it, so
 * the use cases the route calls, the precondition's check and the stored answer commit together.
 * Everything outside such a request never sees one.
 */
export const requestTransactions: AmbientContext<SharedTransaction> = {
  current: () => current.getStore(),
  run: (transaction, work) => current.run(transaction, work),
};

/** How often a request meeting write conflicts in its shared transaction runs again before giving up. */
const MAX_ATTEMPTS = 5;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` in one shared transaction of `uow` that everything it calls joins, and commits it.
 * A write conflict rolls it back and runs `work` again from its start (after a short, jittered
 * pause that lets the winner finish), a few times; then it is a 409 `concurrency_conflict`, as
 * the unit of work's own retries end. Any other failure rolls back and is thrown as it is.
 */
export async function inSharedTransaction<T>(uow: UnitOfWork<Repositories>, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const shared = new SharedTransaction(uow);
    try {
      const result = await requestTransactions.run(shared, work);
      await shared.commit();
      return result;
    } catch (error) {
      await shared.rollback();
      if (!(error instanceof TransactionMustRestart)) throw error;
      if (attempt >= MAX_ATTEMPTS)
        throw new DomainError('concurrency_conflict', 'the data changed concurrently too often; retry the request');
      await pause(Math.random() * 10 * attempt);
    }
  }
}
