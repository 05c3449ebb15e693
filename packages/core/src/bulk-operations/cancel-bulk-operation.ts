import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AnnouncingRepositories } from './bulk-item-applier.ports';
import { BulkOperation } from './bulk-operation.entities';

/**
 * Cancels an operation (`POST /v10/bulk-operations/{id}/cancel`): no further chunk starts; a chunk
 * already running finishes and is counted (it is one transaction, applied whole or not at all).
 * The cancel waits for that chunk (`markFinished` waits on the row the chunk holds), so the
 * operation it answers and the `bulk_operation.finished` it announces carry the final counts. A
 * finished operation cannot be cancelled (409).
 */
export async function cancelBulkOperation(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | AnnouncingRepositories>>; clock: Clock },
  input: { brandId: number; id: number },
): Promise<BulkOperation> {
  return deps.uow.run(async (tx) => {
    const now = deps.clock.now();
    const ended = await tx.bulkOperations.markFinished(input.brandId, input.id, {
      status: 'cancelled',
      finishedAt: now,
      error: null,
    });
    const operation = await tx.bulkOperations.findById(input.brandId, input.id);
    if (!operation) throw DomainError.notFound('bulk operation', input.id);
    if (!ended)
      throw new DomainError(
        'already_finished',
        `bulk operation ${operation.id} is already ${operation.status} and cannot be cancelled`,
        { data: { status: operation.status } },
      );
    await recordEvents(tx, input.brandId, now, [{ type: 'bulk_operation.finished', object: operation }]);
    return operation;
  });
}
