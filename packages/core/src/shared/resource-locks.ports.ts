/**
 * A lock on one resource of a brand (`/v10/orders/7`), held until the transaction that took it
 * ends. A conditional write (DESIGN §14) takes it before it compares the resource's current
 * entity tag with the one it was sent, so that of two writers sent with one tag the second reads
 * the state the first left and is refused: check and write are one step.
 *
 * Adapters whose transactions already run one at a time (SQLite's single writer, the in-memory
 * storage's queue) have nothing to do; Postgres takes a transaction-scoped advisory lock.
 * @example await tx.resourceLocks.hold(brandId, '/v10/orders/7');
 */
export interface ResourceLocks {
  hold(brandId: number, resource: string): Promise<void>;
}

/** The lock's repository; the declaration below adds it to `Repositories`. */
export interface ResourceLockRepositories {
  resourceLocks: ResourceLocks;
}

declare module './unit-of-work.ports' {
  interface Repositories extends ResourceLockRepositories {}
}
