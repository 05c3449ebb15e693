/**
 * @brand/core/testing — test support for code built on @brand/core: every port in memory, and the
 * repository contract suites a storage adapter must pass. Never import it from production code.
 */

// In-memory ports: a unit of work over plain objects, predictable hashers and the reference list semantics.
export { InMemoryUnitOfWork } from './in-memory-unit-of-work';
export { FakeSecretHasher } from './fake-secret-hasher';
export { FakePasswordHasher } from './fake-password-hasher';
export { listInMemory } from '../listing/in-memory-list';

// Repository contract suites: what every storage adapter (in memory, SQLite, Postgres) must pass.
export type { ContractStorage } from './contract-support';
export { sharedContractStorage } from './contract-support';
export { describeSequencesContract } from './sequences-contract';
export { describeIdentityContract } from './identity-contract';
export { describeCustomersContract } from './customers-contract';
export { describeSuppliersContract } from './suppliers-contract';
export { describeListsContract } from './lists-contract';
export { describeTransactionsContract } from './transactions-contract';
export { describeCatalogProductsContract } from './catalog-products-contract';
export { describeCatalogProductLookupsContract } from './catalog-product-lookups-contract';
export { describeCatalogProductRemovalContract } from './catalog-product-removal-contract';
export { describeCatalogCategoriesContract } from './catalog-categories-contract';
export { describeCatalogReferenceDataContract } from './catalog-reference-data-contract';
export { describeCatalogImagesContract } from './catalog-images-contract';
export { describeCatalogListsContract } from './catalog-lists-contract';
export { describeCatalogWriteRacesContract } from './catalog-write-races-contract';
export { describeInventoryStockContract } from './inventory-stock-contract';
export { describeInventoryAvailableContract } from './inventory-available-contract';
export { describeOrdersContract } from './orders-contract';
export { describeProductionContract } from './production-contract';
export { describeReturnsContract } from './returns-contract';
export { describeEventsContract } from './events-contract';
export { describeWebhooksContract } from './webhooks-contract';
export { describeOAuthContract } from './oauth-contract';
export { describeCredentialsContract } from './credentials-contract';
export { describeCrossBrandReferencesContract } from './cross-brand-references-contract';
export { describeConsoleSessionsContract } from './console-sessions-contract';
export { describeIdempotencyContract } from './idempotency-contract';
export { describeHousekeepingContract } from './housekeeping-contract';
export { describeBulkOperationsContract } from './bulk-operations-contract';
export { describeIntegrationHealthContract } from './integration-health-contract';
export { describeQueueDepthsContract } from './queue-depths-contract';
