import { ListQuery, ListRows } from '../listing/list-query';
import {
  BulkLineResult,
  BulkOperation,
  BulkOperationError,
  BulkOperationLease,
  BulkOperationLine,
  ClaimedBulkOperation,
} from './bulk-operation.entities';

/** How an operation ends: its final status, when, and for `failed` why. */
export interface BulkOperationEnding {
  status: 'succeeded' | 'failed' | 'cancelled';
  finishedAt: string;
  error: BulkOperationError | null;
}

/**
 * Bulk operations and their lines (DESIGN §16). An operation is stored while its upload streams in
 * (`receiving`), so its lines never sit whole in memory; it is shown and run only once `queue`d.
 * Running operations are held with a lease, as webhook deliveries are: a process that dies leaves
 * its operation to lapse, and another takes it over from the last chunk it committed.
 *
 * @example
 * const op = await uow.run((tx) => tx.bulkOperations.claimNext(now, { owner, until }));
 * const lines = await uow.read((r) => r.bulkOperations.pendingLines(op.brandId, op.id, op.processedThroughLine, 100));
 * await uow.run(async (tx) => {
 *   if (!(await tx.bulkOperations.hold(op.brandId, op.id, { owner, until }))) return; // cancelled or taken over
 *   // apply the lines, then in the same transaction:
 *   await tx.bulkOperations.recordChunk(op.brandId, op.id, { owner, until }, results);
 * });
 */
export interface BulkOperationRepository {
  /** Stores a new operation (an upload starting: `receiving`, no lines yet). */
  insert(operation: BulkOperation): Promise<void>;
  /** Stores a batch of the upload's lines. */
  appendLines(brandId: number, operationId: number, lines: readonly BulkOperationLine[]): Promise<void>;
  /** Ends an upload: `receiving` → `queued` with its line count; false when it is not receiving (discarded). */
  queue(brandId: number, id: number, totalLines: number): Promise<boolean>;
  /** Deletes an upload that did not complete, with its lines (and results: it has none); an operation already queued stays. */
  discardReceiving(brandId: number, id: number): Promise<void>;
  /** The operation by id (one still receiving is not found). */
  findById(brandId: number, id: number): Promise<BulkOperation | null>;
  /** The operation by id in whichever brand has it, for the operator's CLI (`brand bulk-status <id>`). */
  findByIdAnyBrand(id: number): Promise<BulkOperation | null>;
  /** A page of the brand's operations, keys of `bulkOperationListDefinition` (uploads under way left out). */
  list(brandId: number, query: ListQuery): Promise<ListRows<BulkOperation>>;
  /**
   * Ends an operation that has not ended (queued or running) with `ending`, keeping its counters
   * and lease; false when it had already ended (or is an upload under way). It waits for a chunk
   * under way (`hold` locks the row), so what is read after it in the same transaction holds that
   * chunk's counts: the final ones.
   */
  markFinished(brandId: number, id: number, ending: BulkOperationEnding): Promise<boolean>;
  /**
   * Takes one operation to run, of any brand: first a running one whose lease lapsed (its holder
   * died), else the oldest queued one whose brand runs no operation of its type; marks it running
   * under `lease`, with the last line its committed chunks ran (`processedThroughLine`, where
   * the runner goes on). Null when there is none. In the caller's transaction.
   */
  claimNext(now: string, lease: BulkOperationLease): Promise<ClaimedBulkOperation | null>;
  /**
   * Up to `limit` lines after line `afterLine`, in line order. The runner passes the last line
   * committed (the claim's `processedThroughLine`, then its own chunks' last), so a chunk reads
   * only its own lines.
   */
  pendingLines(brandId: number, operationId: number, afterLine: number, limit: number): Promise<BulkOperationLine[]>;
  /**
   * The first step of a chunk's transaction: renews `lease` and locks the operation's row until
   * that transaction ends, if `lease.owner` still holds it and it is still running. False when
   * it was cancelled or taken over: nothing of the chunk may then be written. The lock is what
   * makes a cancel wait for the chunk under way, and other claimers pass over the row meanwhile.
   */
  hold(brandId: number, operationId: number, lease: BulkOperationLease): Promise<boolean>;
  /**
   * Stores a chunk's results (in one statement), adds them to the operation's counters, moves
   * its `processedThroughLine` to the chunk's last line, clears its count of failed attempts and
   * renews the lease, if `lease.owner` still holds it. The results are of the lines after the
   * last committed chunk, in order, with none left out (lines run strictly in order). False when
   * another process took the operation over: the caller must then roll back, so no chunk is
   * applied twice.
   */
  recordChunk(
    brandId: number,
    operationId: number,
    lease: BulkOperationLease,
    results: readonly BulkLineResult[],
  ): Promise<boolean>;
  /**
   * Counts a failed attempt at the operation's next chunk (its own transaction: the chunk's rolled
   * back); answers the attempts so far, or null when `lease.owner` no longer holds it running.
   */
  recordChunkFailure(brandId: number, operationId: number, lease: BulkOperationLease): Promise<number | null>;
  /** Ends `owner`'s lease on the operation (it finished, was cancelled, or its process stops). */
  releaseLease(brandId: number, operationId: number, owner: string): Promise<void>;
  /** Up to `limit` results after line `afterLine`, in line order (lines not yet run are left out). */
  results(brandId: number, operationId: number, afterLine: number, limit: number): Promise<BulkLineResult[]>;
  /**
   * Deletes up to `limit` lines of uploads that began before `before` and never completed (their
   * process died while receiving), every brand's, with any results of those lines (an upload has
   * none); answers how many lines. Their operations go after.
   */
  deleteAbandonedUploadLines(before: string, limit: number): Promise<number>;
  /** Deletes up to `limit` uploads that began before `before` and never completed (lines first: see above). */
  deleteAbandonedUploads(before: string, limit: number): Promise<number>;
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
