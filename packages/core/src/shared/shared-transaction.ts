import { Repositories, UnitOfWork } from './unit-of-work.ports';

/**
 * Where the current call chain keeps a value that calls further down find without it being passed
 * to them (Node's `AsyncLocalStorage` in an app; the core knows only this shape, so it stays pure).
 */
export interface AmbientContext<T> {
  current(): T | undefined;
  run<R>(value: T, work: () => Promise<R>): Promise<R>;
}

/**
 * Thrown out of a shared transaction that has to be run again from its start: the storage saw a
 * write conflict a fresh attempt resolves (a unique key taken concurrently, a serialization
 * failure), and a held transaction cannot replay the work already done in it.
 */
export class TransactionMustRestart extends Error {
  constructor() {
    super('the shared transaction met a write conflict and must run again from its start');
    this.name = 'TransactionMustRestart';
  }
}

/** What ends a held transaction without committing it when nothing failed inside it. */
class RolledBack extends Error {}

/**
 * One transaction that every unit of work of a call chain joins: opened by the first `run`, kept
 * open across the chain's further `run`s and `read`s, and committed or rolled back by its owner at
 * the end. It lets a caller above the use cases add its own write to their transaction (an
 * idempotent request stores its answer in the transaction of its change, DESIGN §12).
 *
 * A failure inside any joined work dooms the whole transaction: it is rolled back at once and the
 * failure the storage reports for it is thrown (translated as `run` translates it, or
 * `TransactionMustRestart` for a conflict worth another attempt). Later joins throw it again.
 */
export class SharedTransaction {
  private held: Promise<Repositories> | null = null;
  /**
   * Ends the held transaction: `true` commits, anything else is thrown inside it (rolling it back)
   * as it is. Never wrapped: a driver's error may come from another realm (not `instanceof
   * Error` here) and must keep its code, which the adapter reads to classify it.
   */
  private finish: ((outcome: unknown) => void) | null = null;
  private ended: Promise<void> | null = null;
  private failure: { error: unknown } | null = null;
  private closed = false;

  constructor(private readonly inner: UnitOfWork) {}

  /** Whether units of work should still join this transaction (false once it was ended). */
  get open(): boolean {
    return !this.closed;
  }

  /** Whether a joined `run` opened the transaction (reads join only then). */
  get started(): boolean {
    return this.held !== null;
  }

  /** Runs `work` in the transaction, opening it on first use. */
  async join<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    if (this.failure) throw this.failure.error;
    const tx = await this.start();
    try {
      return await work(tx);
    } catch (error) {
      throw await this.fail(error);
    }
  }

  /** Commits what the joined work wrote (nothing to do when no `run` opened the transaction). */
  async commit(): Promise<void> {
    this.closed = true;
    if (this.failure) throw this.failure.error;
    if (!this.held || !this.finish || !this.ended) return;
    this.finish(true);
    try {
      await this.ended;
    } catch (error) {
      this.failure = { error };
      throw error;
    }
  }

  /** Rolls back whatever the joined work wrote; never throws. */
  async rollback(): Promise<void> {
    this.closed = true;
    if (!this.finish || !this.ended) return;
    this.finish(new RolledBack());
    await this.ended.catch(() => undefined);
  }

  private start(): Promise<Repositories> {
    this.held ??= new Promise<Repositories>((resolveTx, failToOpen) => {
      const gate = new Promise<void>((commit, abandon) => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- see `finish`
        this.finish = (outcome) => (outcome === true ? commit() : abandon(outcome));
      });
      let attempts = 0;
      this.ended = this.inner.run(async (tx) => {
        // The adapter runs work again after a conflict; what ran in the first attempt is gone.
        if (++attempts > 1) throw new TransactionMustRestart();
        resolveTx(tx);
        await gate;
      });
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- see `finish`
      this.ended.catch((error: unknown) => failToOpen(error));
    });
    return this.held;
  }

  /** Ends the transaction after `error` in joined work: what the storage makes of it is what the caller sees. */
  private async fail(error: unknown): Promise<unknown> {
    if (this.failure) return this.failure.error;
    this.closed = true;
    this.finish?.(error);
    let reported: unknown = error;
    try {
      await this.ended;
    } catch (outcome) {
      reported = outcome instanceof RolledBack ? error : outcome;
    }
    this.failure = { error: reported };
    return reported;
  }
}

/**
 * A unit of work that joins the shared transaction of the current call chain when there is an
 * open one (`ambient.run(new SharedTransaction(inner), …)`), and is `inner` everywhere else: code
 * that never opens a shared transaction sees no difference. Reads join only once a `run` opened
 * the transaction (they must see its uncommitted writes, and on a single-connection database the
 * held connection is the only one), so work before the first write (downloads, lookups) holds no
 * transaction open.
 */
export class SharingUnitOfWork implements UnitOfWork {
  constructor(
    private readonly inner: UnitOfWork,
    private readonly ambient: AmbientContext<SharedTransaction>,
  ) {}

  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    const shared = this.ambient.current();
    return shared?.open ? shared.join(work) : this.inner.run(work);
  }

  read<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    const shared = this.ambient.current();
    return shared?.open && shared.started ? shared.join(work) : this.inner.read(work);
  }
}
