import { DomainError, Repositories, UnitOfWork } from '@brand/core';
import { Kysely } from 'kysely';
import { Database } from './database';
import { accessTokenRepository, apiAppRepository, brandRepository, requestLogRepository, userRepository } from './repositories/identity.repositories';
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
import { brandSettingsRepository, exportMarkRepository, timelineRepository } from './repositories/orders/document.repositories';
import { accountingEntryRepository, creditNoteRepository, invoiceRepository } from './repositories/orders/finance.repositories';
import { orderChannelRepository } from './repositories/orders/order-channel.repository';
import { orderRepository } from './repositories/orders/order.repository';
import { shipmentRepository } from './repositories/orders/shipment.repository';
import { alertRepository, claimCauseRepository, returnPortalRepository } from './repositories/returns/reference.repositories';
import { returnRepository } from './repositories/returns/return.repository';
import { deliveryNoteRepository } from './repositories/production/delivery-note.repository';
import { productionOrderRepository } from './repositories/production/production-order.repository';
import { isRetryableConflict, translateDriverError } from './storage-errors';
import { Dialect } from './storage';

/** Binds every repository to one connection or transaction. */
export function bindRepositories(executor: Executor): Repositories {
  const ids = idGenerator(executor);
  return {
    ids,
    documentNumbers: documentNumberSequence(executor),
    brands: brandRepository(executor),
    users: userRepository(executor),
    apiApps: apiAppRepository(executor),
    accessTokens: accessTokenRepository(executor),
    requestLogs: requestLogRepository(executor, (count) => ids.next('request_logs', count)),
    customers: customerRepository(executor),
    customerGroups: customerGroupRepository(executor),
    paymentTerms: paymentTermsRepository(executor),
    suppliers: supplierRepository(executor),
    products: productRepository(executor),
    categories: categoryRepository(executor),
    collections: collectionRepository(executor),
    subbrands: subbrandRepository(executor),
    drops: dropRepository(executor),
    costPriceSets: costPriceSetRepository(executor),
    productLocales: productLocaleRepository(executor),
    productImages: productImageRepository(executor),
    inventoryLocations: inventoryLocationRepository(executor),
    stock: stockRepository(executor, ids),
    settings: brandSettingsRepository(executor),
    exportMarks: exportMarkRepository(executor),
    timeline: timelineRepository(executor, ids),
    orderChannels: orderChannelRepository(executor),
    orders: orderRepository(executor),
    shipments: shipmentRepository(executor),
    invoices: invoiceRepository(executor),
    creditNotes: creditNoteRepository(executor),
    accountingEntries: accountingEntryRepository(executor),
    productionOrders: productionOrderRepository(executor),
    deliveryNotes: deliveryNoteRepository(executor),
    returns: returnRepository(executor),
    claimCauses: claimCauseRepository(executor),
    returnPortals: returnPortalRepository(executor),
    alerts: alertRepository(executor),
  };
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
      try {
        return await this.db.transaction().execute((trx) => work(bindRepositories({ db: trx, dialect: this.dialect })));
      } catch (error) {
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
