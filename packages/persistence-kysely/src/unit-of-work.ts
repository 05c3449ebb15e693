import { DomainError, Repositories, UnitOfWork } from '@brand/core';
import { Kysely } from 'kysely';
import { Database } from './database';
import {
  accessTokenRepository,
  apiAppRepository,
  brandRepository,
  requestLogRepository,
  userRepository,
} from './repositories/identity.repositories';
import { categoryRepository } from './repositories/catalog/category.repository';
import { collectionRepository } from './repositories/catalog/collection.repository';
import { costPriceSetRepository } from './repositories/catalog/cost-price-set.repository';
import { dropRepository } from './repositories/catalog/drop.repository';
import { productImageRepository } from './repositories/catalog/product-image.repository';
import { productLocaleRepository } from './repositories/catalog/product-locale.repository';
import { productRepository } from './repositories/catalog/product.repository';
import { subbrandRepository } from './repositories/catalog/subbrand.repository';
import { inventoryLocationRepository } from './repositories/inventory/inventory-location.repository';
import { stockRepository } from './repositories/inventory/stock.repository';
import { customerGroupRepository } from './repositories/customer-group.repository';
import { customerRepository } from './repositories/customer.repository';
import { Executor } from './repositories/executor';
import { paymentTermsRepository } from './repositories/payment-terms.repository';
import { documentNumberSequence, idGenerator } from './repositories/sequences.repository';
import { supplierRepository } from './repositories/supplier.repository';
import {
  brandSettingsRepository,
  exportMarkRepository,
  timelineRepository,
} from './repositories/orders/document.repositories';
import {
  accountingEntryRepository,
  creditNoteRepository,
  invoiceRepository,
} from './repositories/orders/finance.repositories';
import { orderChannelRepository } from './repositories/orders/order-channel.repository';
import { orderRepository } from './repositories/orders/order.repository';
import { shipmentRepository } from './repositories/orders/shipment.repository';
import {
  alertRepository,
  claimCauseRepository,
  returnPortalRepository,
} from './repositories/returns/reference.repositories';
import { returnRepository } from './repositories/returns/return.repository';
import { deliveryNoteRepository } from './repositories/production/delivery-note.repository';
import { productionOrderRepository } from './repositories/production/production-order.repository';
import { isRetryableConflict, translateDriverError } from './storage-errors';
import { Dialect } from './storage';

/**
 * How each repository is made for one connection or transaction. `bound` is the whole set, for
 * the few repositories that draw ids through the same binding.
 */
const REPOSITORY_FACTORIES: {
  [K in keyof Repositories]: (executor: Executor, bound: Repositories) => Repositories[K];
} = {
  ids: (executor) => idGenerator(executor),
  documentNumbers: (executor) => documentNumberSequence(executor),
  brands: (executor) => brandRepository(executor),
  users: (executor) => userRepository(executor),
  apiApps: (executor) => apiAppRepository(executor),
  accessTokens: (executor) => accessTokenRepository(executor),
  requestLogs: (executor, bound) => requestLogRepository(executor, (count) => bound.ids.next('request_logs', count)),
  customers: (executor) => customerRepository(executor),
  customerGroups: (executor) => customerGroupRepository(executor),
  paymentTerms: (executor) => paymentTermsRepository(executor),
  suppliers: (executor) => supplierRepository(executor),
  products: (executor) => productRepository(executor),
  categories: (executor) => categoryRepository(executor),
  collections: (executor) => collectionRepository(executor),
  subbrands: (executor) => subbrandRepository(executor),
  drops: (executor) => dropRepository(executor),
  costPriceSets: (executor) => costPriceSetRepository(executor),
  productLocales: (executor) => productLocaleRepository(executor),
  productImages: (executor) => productImageRepository(executor),
  inventoryLocations: (executor) => inventoryLocationRepository(executor),
  stock: (executor, bound) => stockRepository(executor, bound.ids),
  settings: (executor) => brandSettingsRepository(executor),
  exportMarks: (executor) => exportMarkRepository(executor),
  timeline: (executor, bound) => timelineRepository(executor, bound.ids),
  orderChannels: (executor) => orderChannelRepository(executor),
  orders: (executor) => orderRepository(executor),
  shipments: (executor) => shipmentRepository(executor),
  invoices: (executor) => invoiceRepository(executor),
  creditNotes: (executor) => creditNoteRepository(executor),
  accountingEntries: (executor) => accountingEntryRepository(executor),
  productionOrders: (executor) => productionOrderRepository(executor),
  deliveryNotes: (executor) => deliveryNoteRepository(executor),
  returns: (executor) => returnRepository(executor),
  claimCauses: (executor) => claimCauseRepository(executor),
  returnPortals: (executor) => returnPortalRepository(executor),
  alerts: (executor) => alertRepository(executor),
};
const REPOSITORY_KEYS = Object.keys(REPOSITORY_FACTORIES);
const isRepositoryKey = (key: string | symbol): key is keyof Repositories =>
  typeof key === 'string' && Object.hasOwn(REPOSITORY_FACTORIES, key);

/**
 * Binds every repository to one connection or transaction. Each repository is made on first use
 * (and then kept): every request binds at least once for its token check, most touch two or three
 * of the forty repositories, and making all of them eagerly (the document stores render their
 * upsert SQL when made) cost ~35 µs and a heap of garbage per binding. The binding still behaves
 * like a plain object of all repositories: `{ ...tx, orders: … }` and `Object.keys(tx)` see them all.
 */
export function bindRepositories(executor: Executor): Repositories {
  const made: Partial<Repositories> = {};
  const bound: Repositories = new Proxy(made as Repositories, {
    get: (target, key) => {
      if (!isRepositoryKey(key)) return undefined;
      return (target[key] ??= REPOSITORY_FACTORIES[key](executor, bound) as never);
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

export class KyselyUnitOfWork implements UnitOfWork {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      // The work's own failure. When the ROLLBACK after it fails too (the connection is gone),
      // Kysely throws the rollback's error; the cause worth reporting and classifying is this one.
      const workFailure: { failed: boolean; error?: unknown } = { failed: false };
      try {
        return await this.db.transaction().execute(async (trx) => {
          try {
            return await work(bindRepositories({ db: trx, dialect: this.dialect }));
          } catch (error) {
            Object.assign(workFailure, { failed: true, error });
            throw error;
          }
        });
      } catch (thrown) {
        const error = workFailure.failed ? workFailure.error : thrown;
        if (!isRetryableConflict(error)) throw translateDriverError(error);
        if (attempt >= MAX_ATTEMPTS) {
          throw new DomainError('concurrency_conflict', 'the data changed concurrently too often; retry the request');
        }
        // A short, jittered pause lets the winning transaction finish before we look again.
        await pause(Math.random() * 10 * attempt);
      }
    }
  }

  async read<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    try {
      return await work(bindRepositories({ db: this.db, dialect: this.dialect }));
    } catch (error) {
      throw translateDriverError(error);
    }
  }
}
