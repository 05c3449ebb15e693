import { TransactionEnd } from './transaction-end.ports';
import { Repositories } from './unit-of-work.ports';

/**
 * `TransactionEnd` for the adapters: one per transaction binding, holding the steps its work
 * left, which the adapter's unit of work runs once the work has resolved (`withStepsBeforeCommit`).
 */
export class BeforeCommitSteps implements TransactionEnd {
  private readonly steps: (() => Promise<void>)[] = [];

  beforeCommit(step: () => Promise<void>): void {
    this.steps.push(step);
  }

  /** Runs the steps in order, and any a step leaves in turn. */
  async run(): Promise<void> {
    for (let step = this.steps.shift(); step; step = this.steps.shift()) await step();
  }
}

/** `TransactionEnd` of a binding with no transaction (`read`): leaving a step there is a programming error. */
export const NO_TRANSACTION: TransactionEnd = {
  beforeCommit() {
    throw new Error('beforeCommit needs a unit of work: a read has no transaction to end');
  },
};

/**
 * `work` followed by the steps it left on its binding's `transaction` (a `BeforeCommitSteps`), for
 * an adapter's `run` to call inside its transaction: the transaction commits only after both.
 */
export function withStepsBeforeCommit<T>(work: (tx: Repositories) => Promise<T>): (tx: Repositories) => Promise<T> {
  return async (tx) => {
    const value = await work(tx);
    const end = tx.transaction;
    // Skipping the steps would lose what they write (a transaction's events): refuse instead.
    if (!(end instanceof BeforeCommitSteps)) throw new Error('the unit of work bound no BeforeCommitSteps');
    await end.run();
    return value;
  };
}
