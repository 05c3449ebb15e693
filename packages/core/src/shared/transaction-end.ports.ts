/**
 * The end of a unit of work's transaction, as the work sees it: steps left until the work is
 * done, run inside the transaction just before it commits (never when it rolls back).
 *
 * Why: some writes must be the last thing a transaction does. The outbox numbers a transaction's
 * events only as it commits, under a lock on the brand's feed (`recordEvents`), so that event ids
 * follow the order in which the brand's transactions commit; taking that lock earlier would hold
 * it across the rest of the work and could deadlock with locks taken later.
 */
export interface TransactionEnd {
  /** Runs `step` after the work has resolved, inside the transaction, before COMMIT; steps run in the order they were left. */
  beforeCommit(step: () => Promise<void>): void;
}

/** The transaction's end; the declaration below adds it to `Repositories`. */
export interface TransactionEndRepositories {
  transaction: TransactionEnd;
}

declare module './unit-of-work.ports' {
  interface Repositories extends TransactionEndRepositories {}
}
