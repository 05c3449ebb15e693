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
export { describeRepositoryContract } from './repository-contract';
export type { ContractStorage } from './repository-contract';
export { describeCatalogContract } from './catalog-contract';
export { describeOrdersContract } from './orders-contract';
export { describeProductionContract } from './production-contract';
export { describeReturnsContract } from './returns-contract';
export { describeEventsContract } from './events-contract';
export { describeWebhooksContract } from './webhooks-contract';
export { describeOAuthContract } from './oauth-contract';
export { describeCredentialsContract } from './credentials-contract';
export { describeConsoleSessionsContract } from './console-sessions-contract';
export { describeIdempotencyContract } from './idempotency-contract';
export { describeHousekeepingContract } from './housekeeping-contract';
