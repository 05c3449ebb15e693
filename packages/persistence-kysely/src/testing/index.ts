/**
 * @brand/persistence-kysely/testing — test support for code built on this package: throwaway
 * storages on every dialect of the run, and row-level snapshots that prove a request changed
 * nothing. Never import it from production code.
 */
export { inspectionUrl, oneTestDialect, openTestStorage, testDialects } from './test-storage';
export { onCitusTestCluster } from './citus-test-databases';
export { DatabaseSnapshots, openInspectableTestStorage, snapshotChanges } from './database-snapshot';
export type { Snapshot } from './database-snapshot';
export { loadFixture, migrateDatabase } from './release-fixture';
export type { DatabaseFixture } from './release-fixture';
