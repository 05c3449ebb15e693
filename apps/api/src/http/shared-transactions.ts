import { AsyncLocalStorage } from 'node:async_hooks';
import { AmbientContext, SharedTransaction } from '@brand/core';

const current = new AsyncLocalStorage<SharedTransaction>();

/**
 * The shared transaction of the request being handled, if it opened one (an idempotent write,
 * DESIGN §12): the app's unit of work (`SharingUnitOfWork`) joins it, so the use cases the route
 * calls and the stored answer commit together. Everything outside such a request never sees one.
 */
export const requestTransactions: AmbientContext<SharedTransaction> = {
  current: () => current.getStore(),
  run: (transaction, work) => current.run(transaction, work),
};
