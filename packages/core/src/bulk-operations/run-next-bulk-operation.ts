import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { DomainError, isDomainError } from '../shared/errors';
import { AmbientContext, SharedTransaction, TransactionMustRestart } from '../shared/shared-transaction';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkItemApplier, BulkItemAppliers, BulkLineErrors } from './bulk-item-applier.ports';
import {
  BULK_CHUNK_LINES,
  BULK_CHUNK_MAX_ATTEMPTS,
  BulkLineResult,
  BulkOperation,
  BulkOperationError,
  BulkOperationLease,
  BulkOperationLine,
} from './bulk-operation.entities';

/** What the runner works with. */
export interface BulkRunnerDeps {
  /** The storage's own unit of work: each chunk's transaction is opened on it. */
  uow: UnitOfWork<Repositories>;
  /**
   * Where the chunk's transaction is kept for the sync use cases to join (their unit of work
   * joins what this holds, `SharingUnitOfWork`): the sync's writes, its events, the lines'
   * results and the progress commit together, which is what makes a resumption exact.
   */
  transactions: AmbientContext<SharedTransaction>;
  clock: Clock;
  appliers: BulkItemAppliers;
  /** Told of every unexpected failure of a chunk (the operation only shows a generic error): for the log. */
  chunkFailed?: (failure: { error: unknown; operation: BulkOperation; firstLine: number; attempts: number }) => void;
}

/** Who runs, and for how long a claim holds. */
export interface BulkRunInput {
  /** This runner's name in leases (unique per process). */
  owner: string;
  /** How long a lease holds without being renewed; every chunk renews it. */
  leaseMs: number;
  /** Asked between chunks: true ends the run, leaving the operation to the next claim. */
  stopping?: () => boolean;
}

/** A chunk's transaction found the operation cancelled or taken over by another runner: nothing of it may commit. */
class NoLongerHeld extends Error {}

/** How often a chunk meeting write conflicts runs again before it counts as a failed attempt. */
const MAX_CHUNK_CONFLICTS = 5;

/** Whether a failure is the storage being away, which says nothing about the chunk: it is retried after the outage. */
const isStorageOutage = (error: unknown): boolean => isDomainError(error) && error.code === 'storage_unavailable';

/**
 * Takes one operation to run (DESIGN §16), a queued one or one whose runner died, and runs it
 * chunk by chunk to its end: lines of at most `BULK_CHUNK_LINES`, each chunk in one transaction
 * with the sync's rules and events, its lines' results and the progress. A line that is not JSON
 * or that the sync refuses fails alone; the others of its chunk apply. Each chunk's transaction
 * first holds the operation (`hold`), so a cancel stops it after the chunk under way. A chunk
 * that fails unexpectedly is tried again, and after `BULK_CHUNK_MAX_ATTEMPTS` the operation is
 * `failed`; an outage of the storage is thrown to the caller and counts nothing (the operation is
 * taken up again after its lease). When every line ran it `succeeded`; either end announces
 * `bulk_operation.finished`. Answers whether there was one to run.
 */
export async function runNextBulkOperation(deps: BulkRunnerDeps, input: BulkRunInput): Promise<boolean> {
  const lease = (): BulkOperationLease => ({
    owner: input.owner,
    until: new Date(Date.parse(deps.clock.now()) + input.leaseMs).toISOString(),
  });
  const claimed = await deps.uow.run((tx) => tx.bulkOperations.claimNext(deps.clock.now(), lease()));
  if (!claimed) return false;
  const { brandId, id } = claimed;
  const release = () => deps.uow.run((tx) => tx.bulkOperations.releaseLease(brandId, id, input.owner));
  const applier = deps.appliers[claimed.type];
  // The last line committed (by an earlier runner, then by this one): each chunk reads only its
  // own lines, never the done ones.
  let afterLine = claimed.processedThroughLine;
  for (;;) {
    if (input.stopping?.()) {
      await release();
      return true;
    }
    const lines = await deps.uow.read((repos) =>
      repos.bulkOperations.pendingLines(brandId, id, afterLine, BULK_CHUNK_LINES),
    );
    if (lines.length === 0) {
      await end(deps, claimed, lease(), null);
      return true;
    }
    let held: boolean;
    try {
      held = await runChunk(deps, claimed, applier, lines, lease);
    } catch (error) {
      if (isStorageOutage(error)) throw error;
      const attempts = await deps.uow.run((tx) => tx.bulkOperations.recordChunkFailure(brandId, id, lease()));
      const firstLine = lines[0]!.line;
      deps.chunkFailed?.({ error, operation: claimed, firstLine, attempts: attempts ?? 0 });
      if (attempts === null) {
        await release();
        return true;
      }
      if (attempts < BULK_CHUNK_MAX_ATTEMPTS) continue;
      const lastLine = lines[lines.length - 1]!.line;
      await end(deps, claimed, lease(), {
        code: 'chunk_failed',
        message: `lines ${firstLine} to ${lastLine} could not be applied (${attempts} attempts); the lines before them were applied, they and the lines after them were not run`,
        firstLine,
        lastLine,
      });
      return true;
    }
    if (!held) {
      await release();
      return true;
    }
    afterLine = lines[lines.length - 1]!.line;
  }
}

/**
 * Ends the operation this runner holds: `succeeded` (every line ran) or, with `error`, `failed`;
 * announces it with its final counts and gives up the lease. Nothing when it was cancelled or
 * taken over meanwhile.
 */
async function end(
  deps: BulkRunnerDeps,
  claimed: BulkOperation,
  lease: BulkOperationLease,
  error: BulkOperationError | null,
): Promise<void> {
  const { brandId, id } = claimed;
  await deps.uow.run(async (tx) => {
    if (!(await tx.bulkOperations.hold(brandId, id, lease))) return;
    const now = deps.clock.now();
    await tx.bulkOperations.markFinished(brandId, id, {
      status: error ? 'failed' : 'succeeded',
      finishedAt: now,
      error,
    });
    const finished = await tx.bulkOperations.findById(brandId, id);
    if (finished) await recordEvents(tx, brandId, now, [{ type: 'bulk_operation.finished', object: finished }]);
    await tx.bulkOperations.releaseLease(brandId, id, lease.owner);
  });
}

/**
 * Which item each violation of a sync's refusal names (`/customers/3/name` → item 3, `/name`), or
 * null when one of them names none of `count` items (the refusal is about the whole request).
 */
function refusalsByItem(refusal: DomainError, count: number): Map<number, DomainError> | null {
  if (refusal.violations.length === 0) return null;
  const byItem = new Map<number, DomainError>();
  for (const violation of refusal.violations) {
    const match = /^\/[^/]+\/(\d+)(\/.*)?$/.exec(violation.pointer);
    const index = match ? Number(match[1]) : NaN;
    if (!(index < count)) return null;
    const own = byItem.get(index)?.violations ?? [];
    byItem.set(
      index,
      new DomainError(refusal.code, refusal.message, {
        violations: [...own, { pointer: match![2] ?? '', detail: violation.detail }],
        data: refusal.data,
      }),
    );
  }
  return byItem;
}

/**
 * Runs one chunk in one transaction. The lines the sync refuses are taken out and the rest tried
 * again, so the chunk that commits holds every line's result; a refusal that names no item is
 * narrowed down by running the chunk's lines one at a time. False when the operation was
 * cancelled or taken over (nothing of the chunk committed).
 */
async function runChunk(
  deps: BulkRunnerDeps,
  operation: BulkOperation,
  applier: BulkItemApplier,
  lines: readonly BulkOperationLine[],
  lease: () => BulkOperationLease,
): Promise<boolean> {
  const failed = new Map<number, BulkLineErrors>();
  let candidates: { line: number; item: unknown }[] = [];
  for (const line of lines) {
    const parsed = await applier.parse(line.text);
    if ('errors' in parsed) failed.set(line.line, parsed.errors);
    else candidates.push({ line: line.line, item: parsed.item });
  }
  for (let conflicts = 0; ; ) {
    const shared = new SharedTransaction(deps.uow);
    try {
      await deps.transactions.run(shared, async () => {
        // First, so the row stays locked for the chunk: a cancel waits for it, a claimer passes it by.
        if (!(await shared.join((tx) => tx.bulkOperations.hold(operation.brandId, operation.id, lease()))))
          throw new NoLongerHeld();
        const ids =
          candidates.length === 0
            ? []
            : await applier.apply({
                brandId: operation.brandId,
                userId: operation.userId,
                items: candidates.map((c) => c.item),
              });
        const applied = new Map(candidates.map((c, i) => [c.line, ids[i] ?? null]));
        const results: BulkLineResult[] = lines.map(({ line }) =>
          failed.has(line)
            ? { line, status: 'failed', errors: failed.get(line)! }
            : { line, status: 'ok', id: applied.get(line) ?? null },
        );
        const held = await shared.join((tx) =>
          tx.bulkOperations.recordChunk(operation.brandId, operation.id, lease(), results),
        );
        if (!held) throw new NoLongerHeld();
      });
      await shared.commit();
      return true;
    } catch (error) {
      await shared.rollback();
      if (error instanceof NoLongerHeld) return false;
      if (error instanceof TransactionMustRestart && ++conflicts < MAX_CHUNK_CONFLICTS) continue;
      if (!isDomainError(error) || isStorageOutage(error) || candidates.length === 0) throw error;
      const byItem = refusalsByItem(error, candidates.length);
      if (byItem) {
        for (const [index, refusal] of byItem) failed.set(candidates[index]!.line, applier.describe(refusal));
        candidates = candidates.filter((_, index) => !byItem.has(index));
      } else if (candidates.length === 1) {
        failed.set(candidates[0]!.line, applier.describe(error));
        candidates = [];
      } else {
        for (const line of lines) if (!(await runChunk(deps, operation, applier, [line], lease))) return false;
        return true;
      }
    }
  }
}
