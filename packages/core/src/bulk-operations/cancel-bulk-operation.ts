import { recordEvents } from '../events/record-events';
import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AnnouncingRepositories } from './bulk-item-applier.ports';
import { BulkOperation, FINISHED_BULK_OPERATION_STATUSES } from './bulk-operation.entities';

/**
 * Cancels an operation (`POST /v10/bulk-operations/{id}/cancel`): no further chunk starts; a chunk
 * already running finishes and is counted (it is one transaction, applied whole or not at all).
 * Announces `bulk_operation.finished`. A finished operation cannot be cancelled (409).
 */
export async function cancelBulkOperation(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | AnnouncingRepositories>>; clock: Clock },
  input: { brandId: number; id: number },
): Promise<BulkOperation> {
  return deps.uow.run(async (tx) => {
    const operation = await tx.bulkOperations.findById(input.brandId, input.id);
    if (!operation) throw DomainError.notFound('bulk operation', input.id);
    if (FINISHED_BULK_OPERATION_STATUSES.includes(operation.status))
      throw new DomainError(
        'already_finished',
        `bulk operation ${operation.id} is already ${operation.status} and cannot be cancelled`,
        { data: { status: operation.status } },
      );
    const now = deps.clock.now();
    const cancelled: BulkOperation = { ...operation, status: 'cancelled', finishedAt: now };
    await tx.bulkOperations.saveStatus(cancelled);
    await recordEvents(tx, input.brandId, now, [{ type: 'bulk_operation.finished', object: cancelled }]);
    return cancelled;
  });
}
