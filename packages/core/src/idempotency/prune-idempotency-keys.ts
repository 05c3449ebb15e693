import { Clock } from '../shared/clock.ports';
import { deleteInBatches } from '../shared/delete-in-batches';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { IDEMPOTENCY_KEY_RETENTION_MS } from './idempotency-rules';

/**
 * Deletes the idempotency keys past their 24 hours, in batches; answers how many went. Every API
 * process runs it now and then; a key past its retention is free even before it is deleted.
 * @example const deleted = await pruneIdempotencyKeys({ uow, clock });
 */
export async function pruneIdempotencyKeys(deps: {
  uow: UnitOfWork<Pick<Repositories, 'idempotencyKeys'>>;
  clock: Clock;
}): Promise<number> {
  const cutoff = new Date(Date.parse(deps.clock.now()) - IDEMPOTENCY_KEY_RETENTION_MS).toISOString();
  return deleteInBatches(deps.uow, (tx, limit) => tx.idempotencyKeys.deleteCreatedBefore(cutoff, limit));
}
