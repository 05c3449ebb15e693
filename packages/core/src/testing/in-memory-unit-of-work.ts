import { BeforeCommitSteps, NO_TRANSACTION, withStepsBeforeCommit } from '../shared/before-commit-steps';
import { SequenceRepositories } from '../shared/sequences.ports';
import { ResourceLockRepositories } from '../shared/resource-locks.ports';
import { TransactionEndRepositories } from '../shared/transaction-end.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import {
  CatalogState,
  emptyCatalogState,
  inMemoryCatalogFactories,
  inMemoryInventoryFactories,
} from './in-memory-catalog';
import {
  BulkOperationsState,
  emptyBulkOperationsState,
  inMemoryBulkOperationFactories,
} from './in-memory-bulk-operations';
import { EventsState, emptyEventsState, inMemoryEventFactories } from './in-memory-events';
import { InMemoryFactories } from './in-memory-factories';
import { WebhooksState, emptyWebhooksState, inMemoryWebhookFactories } from './in-memory-webhooks';
import { IdentityState, emptyIdentityState, inMemoryIdentityFactories } from './in-memory-identity';
import { OAuthState, emptyOAuthState, inMemoryOAuthFactories } from './in-memory-oauth';
import { ConsoleState, emptyConsoleState, inMemoryConsoleFactories } from './in-memory-console';
import { IdempotencyState, emptyIdempotencyState, inMemoryIdempotencyFactories } from './in-memory-idempotency';
import {
  OrdersState,
  emptyOrdersState,
  inMemoryDocumentFactories,
  inMemoryFinanceFactories,
  inMemoryOrderFactories,
  inMemorySettingsFactories,
  inMemoryShipmentFactories,
} from './in-memory-orders';
import {
  PartnersState,
  emptyPartnersState,
  inMemoryCustomerFactories,
  inMemorySupplierFactories,
} from './in-memory-partners';
import { ProductionState, emptyProductionState, inMemoryProductionFactories } from './in-memory-production';
import { ReturnsState, emptyReturnsState, inMemoryReturnFactories } from './in-memory-returns';
import { inMemoryIntegrationHealthFactories } from './in-memory-integration-health';
import { inMemoryMonitoringFactories } from './in-memory-monitoring';

interface MemoryState
  extends IdentityState,
    PartnersState,
    CatalogState,
    OrdersState,
    ReturnsState,
    ProductionState,
    EventsState,
    WebhooksState,
    OAuthState,
    ConsoleState,
    IdempotencyState,
    BulkOperationsState {
  counters: Record<string, number>;
  documentNumbers: Record<string, number>;
}

function emptyState(): MemoryState {
  return {
    counters: {},
    documentNumbers: {},
    ...emptyIdentityState(),
    ...emptyPartnersState(),
    ...emptyCatalogState(),
    ...emptyOrdersState(),
    ...emptyReturnsState(),
    ...emptyProductionState(),
    ...emptyEventsState(),
    ...emptyWebhooksState(),
    ...emptyOAuthState(),
    ...emptyConsoleState(),
    ...emptyIdempotencyState(),
    ...emptyBulkOperationsState(),
  };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The id counters and document number series, which every module draws from. */
const inMemorySequenceFactories: InMemoryFactories<SequenceRepositories & ResourceLockRepositories, MemoryState> = {
  ids: (s) => ({
    async next(kind, count = 1) {
      const start = (s().counters[kind] ?? 0) + 1;
      s().counters[kind] = start + count - 1;
      return Array.from({ length: count }, (_, i) => start + i);
    },
  }),
  documentNumbers: (s) => ({
    async next(brandId, kind) {
      const key = `${brandId}:${kind}`;
      const next = (s().documentNumbers[key] ?? 0) + 1;
      s().documentNumbers[key] = next;
      return next;
    },
  }),
  // Transactions here run one after another (the queue in `run`): a resource is never contended.
  resourceLocks: () => ({ hold: async () => {} }),
};

/**
 * How each repository is made over the state: one spread per module, each module's factories
 * living next to its repositories. The type demands a factory for every repository of
 * `Repositories`, so a module left out here does not compile.
 */
const IN_MEMORY_FACTORIES: InMemoryFactories<Omit<Repositories, 'transaction'>, MemoryState> = {
  ...inMemorySequenceFactories,
  ...inMemoryIdentityFactories,
  ...inMemoryCustomerFactories,
  ...inMemorySupplierFactories,
  ...inMemoryCatalogFactories,
  ...inMemoryInventoryFactories,
  ...inMemorySettingsFactories,
  ...inMemoryDocumentFactories,
  ...inMemoryOrderFactories,
  ...inMemoryShipmentFactories,
  ...inMemoryFinanceFactories,
  ...inMemoryProductionFactories,
  ...inMemoryReturnFactories,
  ...inMemoryEventFactories,
  ...inMemoryWebhookFactories,
  ...inMemoryOAuthFactories,
  ...inMemoryConsoleFactories,
  ...inMemoryIdempotencyFactories,
  ...inMemoryBulkOperationFactories,
  ...inMemoryIntegrationHealthFactories,
  ...inMemoryMonitoringFactories,
};
const REPOSITORY_KEYS = Object.keys(IN_MEMORY_FACTORIES) as (keyof typeof IN_MEMORY_FACTORIES)[];

/** Every repository over `state`, made at once (here they are cheap to make), and the transaction's end. */
function bind(state: () => MemoryState, end: TransactionEndRepositories['transaction']): Repositories {
  const bound: Partial<Repositories> = { transaction: end };
  for (const key of REPOSITORY_KEYS) bound[key] = IN_MEMORY_FACTORIES[key](state, bound as Repositories) as never;
  return bound as Repositories;
}

/**
 * The ports in memory, for tests of the core and of code embedding it. Transactions are
 * serialised and work on a copy of the state that replaces the original only on success, so a
 * failed transaction leaves nothing behind, like the SQL adapters.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  private state: MemoryState = emptyState();
  private queue: Promise<unknown> = Promise.resolve();

  async run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      const draft = clone(this.state);
      const value = await withStepsBeforeCommit(work)(bind(() => draft, new BeforeCommitSteps()));
      this.state = draft;
      return value;
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  async read<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    return work(bind(() => this.state, NO_TRANSACTION));
  }
}
