import {
  BeforeCommitSteps,
  DomainError,
  NO_TRANSACTION,
  Repositories,
  TransactionEnd,
  TransactionEndRepositories,
  UnitOfWork,
  withStepsBeforeCommit,
} from '@brand/core';
import { Kysely } from 'kysely';
import { actingForCalledBrand } from './brand-session';
import { Database } from './database';
import { catalogRepositoryFactories } from './repositories/catalog/catalog.repositories';
import { customerRepositoryFactories } from './repositories/customers/customer.repositories';
import { documentRepositoryFactories } from './repositories/documents/document.repositories';
import { eventRepositoryFactories } from './repositories/events/event.repositories';
import { Executor, RepositoryFactories } from './repositories/executor';
import { webhookRepositoryFactories } from './repositories/webhooks/webhook.repositories';
import { bulkOperationRepositoryFactories } from './repositories/bulk-operations/bulk-operation.repositories';
import { integrationHealthRepositoryFactories } from './repositories/integration-health/integration-health.repositories';
import { queueDepthRepositoryFactories } from './repositories/monitoring/queue-depth.repositories';
import { oauthRepositoryFactories } from './repositories/oauth/oauth.repositories';
import { consoleRepositoryFactories } from './repositories/console/console.repositories';
import { idempotencyRepositoryFactories } from './repositories/idempotency/idempotency.repositories';
import { financeRepositoryFactories } from './repositories/finance/finance.repositories';
import { shipmentRepositoryFactories } from './repositories/fulfilment/shipment.repositories';
import { identityRepositoryFactories } from './repositories/identity/identity.repositories';
import { inventoryRepositoryFactories } from './repositories/inventory/inventory.repositories';
import { orderRepositoryFactories } from './repositories/orders/order.repositories';
import { productionRepositoryFactories } from './repositories/production/production.repositories';
import { returnRepositoryFactories } from './repositories/returns/return.repositories';
import { sequenceRepositoryFactories } from './repositories/sequences.repositories';
import { resourceLockRepositoryFactories } from './repositories/resource-locks.repositories';
import { settingsRepositoryFactories } from './repositories/settings/settings.repositories';
import { supplierRepositoryFactories } from './repositories/suppliers/supplier.repositories';
import { isRetryableConflict, translateDriverError } from './storage-errors';
import { SqliteLane } from './sqlite-lane';
import { GroupMember, SqliteTransactionGroups, TransactionGroupLimits } from './sqlite-transaction-groups';
import { Dialect, StorageObserver } from './storage';
import { eventTypesWrittenIn } from './written-events';

/**
 * The end of a transaction binding (steps `run` takes before COMMIT); a binding to the plain
 * connection (`read`) has none.
 */
const transactionEndFactories: RepositoryFactories<TransactionEndRepositories> = {
  transaction: (executor) => (executor.db.isTransaction ? new BeforeCommitSteps() : NO_TRANSACTION),
};

/**
 * How each repository is made for one connection or transaction: one spread per module, each
 * module's factories living next to its repositories. The type demands a factory for every
 * repository of `Repositories`, so a module left out here does not compile.
 */
const REPOSITORY_FACTORIES: RepositoryFactories<Repositories> = {
  ...transactionEndFactories,
  ...sequenceRepositoryFactories,
  ...resourceLockRepositoryFactories,
  ...identityRepositoryFactories,
  ...customerRepositoryFactories,
  ...supplierRepositoryFactories,
  ...catalogRepositoryFactories,
  ...inventoryRepositoryFactories,
  ...settingsRepositoryFactories,
  ...documentRepositoryFactories,
  ...orderRepositoryFactories,
  ...shipmentRepositoryFactories,
  ...financeRepositoryFactories,
  ...productionRepositoryFactories,
  ...returnRepositoryFactories,
  ...eventRepositoryFactories,
  ...webhookRepositoryFactories,
  ...bulkOperationRepositoryFactories,
  ...oauthRepositoryFactories,
  ...consoleRepositoryFactories,
  ...idempotencyRepositoryFactories,
  ...integrationHealthRepositoryFactories,
  ...queueDepthRepositoryFactories,
};
const REPOSITORY_KEYS = Object.keys(REPOSITORY_FACTORIES);
const isRepositoryKey = (key: string | symbol): key is keyof Repositories =>
  typeof key === 'string' && Object.hasOwn(REPOSITORY_FACTORIES, key);

/**
 * Binds every repository to one connection or transaction. Each repository is made on first use
 * (and then kept): every request binds at least once for its token check, most touch two or three
 * of the forty repositories, and making all of them eagerly (the document stores render their
 * upsert SQL when made) spent time and garbage on every binding for repositories it never used.
 * The binding still behaves like a plain object of all repositories: `{ ...tx, orders: … }` and
 * `Object.keys(tx)` see them all.
 */
export function bindRepositories(executor: Executor): Repositories {
  const made: Partial<Repositories> = {};
  const bound: Repositories = new Proxy(made as Repositories, {
    get: (target, key) => {
      if (!isRepositoryKey(key)) return undefined;
      return (target[key] ??= actingForCalledBrand(
        key,
        REPOSITORY_FACTORIES[key](executor, bound),
        executor.db,
        executor.dialect,
      ) as never);
    },
    has: (_target, key) => isRepositoryKey(key),
    ownKeys: () => REPOSITORY_KEYS,
    getOwnPropertyDescriptor: (_target, key) =>
      isRepositoryKey(key) ? { value: bound[key], enumerable: true, configurable: true, writable: false } : undefined,
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  return bound;
}

/** How often a transaction that lost a write race is tried again before `concurrency_conflict`. */
const MAX_ATTEMPTS = 5;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a failed attempt at a unit of work becomes: the error to report, or (a lost write race)
 * another attempt after a short, jittered pause that lets the winning transaction finish.
 */
function afterFailedAttempt(error: unknown, attempt: number): { report: unknown } | { retryAfterMs: number } {
  if (!isRetryableConflict(error)) return { report: translateDriverError(error) };
  if (attempt >= MAX_ATTEMPTS) {
    return {
      report: new DomainError('concurrency_conflict', 'the data changed concurrently too often; retry the request'),
    };
  }
  return { retryAfterMs: Math.random() * 10 * attempt };
}

export class KyselyUnitOfWork implements UnitOfWork {
  /** On SQLite with its lane: units of work that queue up share a transaction (sqlite-transaction-groups.ts). */
  private readonly groups: SqliteTransactionGroups | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    /** SQLite's lane for compiled statements (sqlite-lane.ts); without it every statement takes the query builder's way. */
    private readonly lane?: SqliteLane,
    /** How far SQLite's transaction groups may grow (tests pin the time bound down). */
    groupLimits?: TransactionGroupLimits,
    /** Told of retries and of the events each committed unit of work wrote (the server's metrics). */
    private readonly observer: StorageObserver = {},
  ) {
    this.groups = lane
      ? new SqliteTransactionGroups(
          db,
          lane,
          (transaction) => bindRepositories({ db: transaction, dialect, lane }),
          groupLimits,
        )
      : undefined;
  }

  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.observer.eventsCommitted ? this.runCountingEvents(work) : this.runWork(work);
  }

  private runWork<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    // The steps the work leaves for its end run inside its transaction (or, grouped on SQLite,
    // inside its savepoint), so they commit or roll back with it.
    const whole = withStepsBeforeCommit(work);
    return this.groups ? this.runGrouped(this.groups, whole) : this.runAlone(whole);
  }

  /**
   * `runWork`, then the events its transaction wrote told to the observer: only once it has
   * committed, so a rolled-back attempt (retried, refused, failed) counts nothing. Each attempt
   * binds anew; the end kept is the last attempt's, the one that committed.
   */
  private async runCountingEvents<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    let end: TransactionEnd | undefined;
    const value = await this.runWork((tx) => {
      end = tx.transaction;
      return work(tx);
    });
    const types = end ? eventTypesWrittenIn(end) : [];
    if (types.length > 0) this.observer.eventsCommitted?.(types);
    return value;
  }

  private runGrouped<T>(groups: SqliteTransactionGroups, work: (tx: Repositories) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let attempt = 1;
      const member: GroupMember<T> = {
        work,
        resolve,
        failed: (error) => {
          const next = afterFailedAttempt(error, attempt);
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rejects with what runAlone throws: a DomainError, or the driver's own error as it came
          if ('report' in next) return reject(next.report);
          this.observer.transactionRetried?.();
          attempt++;
          setTimeout(() => groups.enqueue(member as GroupMember), next.retryAfterMs);
        },
      };
      groups.enqueue(member as GroupMember);
    });
  }

  private async runAlone<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      // The work's own failure. When the ROLLBACK after it fails too (the connection is gone),
      // Kysely throws the rollback's error; the cause worth reporting and classifying is this one.
      const workFailure: { failed: boolean; error?: unknown } = { failed: false };
      try {
        return await this.db.transaction().execute(async (trx) => {
          try {
            return await work(bindRepositories({ db: trx, dialect: this.dialect, lane: this.lane }));
          } catch (error) {
            Object.assign(workFailure, { failed: true, error });
            throw error;
          }
        });
      } catch (thrown) {
        const next = afterFailedAttempt(workFailure.failed ? workFailure.error : thrown, attempt);
        if ('report' in next) throw next.report;
        this.observer.transactionRetried?.();
        await pause(next.retryAfterMs);
      }
    }
  }

  async read<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    try {
      return await work(bindRepositories({ db: this.db, dialect: this.dialect, lane: this.lane }));
    } catch (error) {
      throw translateDriverError(error);
    }
  }
}
