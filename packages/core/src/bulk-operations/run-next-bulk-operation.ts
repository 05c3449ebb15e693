import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { DomainError, isDomainError } from '../shared/errors';
import { AmbientContext, SharedTransaction, TransactionMustRestart } from '../shared/shared-transaction';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkItemApplier, BulkItemAppliers, BulkLineErrors } from './bulk-item-applier.ports';
import {
  BULK_CHUNK_LINES,
  BulkLineResult,
  BulkOperation,
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

/** A chunk's transaction found that another runner took the operation over: nothing of it may commit. */
class LeaseLost extends Error {}

/** How often a chunk meeting write conflicts runs again before the operation is left for later. */
const MAX_CHUNK_ATTEMPTS = 5;

/**
 * Takes one operation to run (DESIGN §16), a queued one or one whose runner died, and runs it
 * chunk by chunk to its end: lines of at most `BULK_CHUNK_LINES`, each chunk in one transaction
 * with the sync's rules and events, its lines' results and the progress. A line that is not JSON
 * or that the sync refuses fails alone; the others of its chunk apply. Between chunks the
 * operation is read again, so a cancel stops it after the chunk under way. When every line ran it
 * `succeeded` and `bulk_operation.finished` is announced. Answers whether there was one to run.
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
  for (;;) {
    if (input.stopping?.()) {
      await release();
      return true;
    }
    const lines = await deps.uow.read((repos) => repos.bulkOperations.pendingLines(brandId, id, BULK_CHUNK_LINES));
    if (lines.length === 0) {
      await finish(deps, claimed, lease);
      return true;
    }
    if (!(await runChunk(deps, claimed, applier, lines, lease))) return true;
    const current = await deps.uow.read((repos) => repos.bulkOperations.findById(brandId, id));
    if (current?.status !== 'running') {
      await release();
      return true;
    }
  }
}

/** Ends an operation whose every line ran, if this runner still holds it and nobody cancelled it. */
async function finish(deps: BulkRunnerDeps, claimed: BulkOperation, lease: () => BulkOperationLease): Promise<void> {
  await deps.uow.run(async (tx) => {
    const { brandId, id } = claimed;
    const held = lease();
    if (!(await tx.bulkOperations.recordChunk(brandId, id, held, []))) return;
    const operation = await tx.bulkOperations.findById(brandId, id);
    if (operation?.status === 'running') {
      const now = deps.clock.now();
      const succeeded: BulkOperation = { ...operation, status: 'succeeded', finishedAt: now };
      await tx.bulkOperations.saveStatus(succeeded);
      await recordEvents(tx, brandId, now, [{ type: 'bulk_operation.finished', object: succeeded }]);
    }
    await tx.bulkOperations.releaseLease(brandId, id, held.owner);
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
 * narrowed down by running the chunk's lines one at a time. False when the lease was lost.
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
        if (!held) throw new LeaseLost();
      });
      await shared.commit();
      return true;
    } catch (error) {
      await shared.rollback();
      if (error instanceof LeaseLost) return false;
      if (error instanceof TransactionMustRestart && ++conflicts < MAX_CHUNK_ATTEMPTS) continue;
      if (!isDomainError(error) || candidates.length === 0) throw error;
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
