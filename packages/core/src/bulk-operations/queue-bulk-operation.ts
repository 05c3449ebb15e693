import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkOperation } from './bulk-operation.entities';

/**
 * Ends an upload: the operation is `queued` with its line count and from now on shown and run.
 * Inside the request's transaction when it carries an idempotency key, so the operation and the
 * key's stored answer commit together.
 */
export async function queueBulkOperation(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  input: { brandId: number; operationId: number; totalLines: number },
): Promise<BulkOperation> {
  return deps.uow.run(async (tx) => {
    const queued = await tx.bulkOperations.queue(input.brandId, input.operationId, input.totalLines);
    const operation = queued ? await tx.bulkOperations.findById(input.brandId, input.operationId) : null;
    if (!operation) throw DomainError.notFound('bulk operation', input.operationId);
    return operation;
  });
}
