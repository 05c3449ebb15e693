import { ListQuery, ListRows } from '../listing/list-query';
import { BulkLineResult, BulkOperation, BulkOperationLease, BulkOperationLine } from './bulk-operation.entities';

/**
 * Bulk operations and their lines (DESIGN §16). An operation is stored while its upload streams in
 * (`receiving`), so its lines never sit whole in memory; it is shown and run only once `queue`d.
 * Running operations are held with a lease, as webhook deliveries are: a process that dies leaves
 * its operation to lapse, and another takes it over from the last chunk it committed.
 *
 * @example
 * const op = await tx.bulkOperations.claimNext(now, { owner, until });
 * if (op) {
 *   const lines = await tx.bulkOperations.pendingLines(op.brandId, op.id, 100);
 *   // apply them, then in the same transaction:
 *   await tx.bulkOperations.recordChunk(op.brandId, op.id, { owner, until }, results);
 * }
 */
export interface BulkOperationRepository {
  /** Stores a new operation (an upload starting: `receiving`, no lines yet). */
  insert(operation: BulkOperation): Promise<void>;
  /** Stores a batch of the upload's lines. */
  appendLines(brandId: number, operationId: number, lines: readonly BulkOperationLine[]): Promise<void>;
  /** Ends an upload: `receiving` → `queued` with its line count; false when it is not receiving (discarded). */
  queue(brandId: number, id: number, totalLines: number): Promise<boolean>;
  /** Deletes an upload that did not complete, with its lines; an operation already queued stays. */
  discardReceiving(brandId: number, id: number): Promise<void>;
  /** The operation by id (one still receiving is not found). */
  findById(brandId: number, id: number): Promise<BulkOperation | null>;
  /** The operation by id in whichever brand has it, for the operator's CLI (`brand bulk-status <id>`). */
  findByIdAnyBrand(id: number): Promise<BulkOperation | null>;
  /** A page of the brand's operations, keys of `bulkOperationListDefinition` (uploads under way left out). */
  list(brandId: number, query: ListQuery): Promise<ListRows<BulkOperation>>;
  /** Stores the status and times of an operation (a cancel, a finish), keeping its counters and lease. */
  saveStatus(operation: BulkOperation): Promise<void>;
  /**
   * Takes one operation to run, of any brand: first a running one whose lease lapsed (its holder
   * died), else the oldest queued one whose brand runs no operation of its type; marks it running
   * under `lease`. Null when there is none. In the caller's transaction.
   */
  claimNext(now: string, lease: BulkOperationLease): Promise<BulkOperation | null>;
  /** Up to `limit` lines without a result yet, in line order: where the operation goes on. */
  pendingLines(brandId: number, operationId: number, limit: number): Promise<BulkOperationLine[]>;
  /**
   * Stores a chunk's results, adds them to the operation's counters and renews the lease, if
   * `lease.owner` still holds it. False when another process took the operation over: the caller
   * must then roll back, so no chunk is applied twice.
   */
  recordChunk(
    brandId: number,
    operationId: number,
    lease: BulkOperationLease,
    results: readonly BulkLineResult[],
  ): Promise<boolean>;
  /** Ends `owner`'s lease on the operation (it finished, was cancelled, or its process stops). */
  releaseLease(brandId: number, operationId: number, owner: string): Promise<void>;
  /** Up to `limit` results after line `afterLine`, in line order (lines not yet run are left out). */
  results(brandId: number, operationId: number, afterLine: number, limit: number): Promise<BulkLineResult[]>;
}

/** The bulk operations module's repositories; the declaration below adds them to `Repositories`. */
export interface BulkOperationRepositories {
  bulkOperations: BulkOperationRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends BulkOperationRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The bulk operations module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    bulk_operations: true;
  }
}
