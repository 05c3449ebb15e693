import { Repositories } from '../shared/unit-of-work.ports';

/**
 * How the in-memory adapter makes a module's repositories for one binding: one factory for each
 * repository of the module's set `M` (its `CustomerRepositories`, say), no more and no fewer, over
 * the state `S` the module's repositories read and write (a transaction's draft, or the committed
 * state for `read`). `bound` is the whole binding, for repositories that draw ids through it.
 */
export type InMemoryFactories<M, S> = {
  [K in keyof M]-?: (state: () => S, bound: Repositories) => M[K];
};
