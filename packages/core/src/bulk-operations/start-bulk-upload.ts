import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkOperation, BulkOperationType } from './bulk-operation.entities';

/**
 * Opens the storage for an upload (`POST /v10/bulk-operations`): an operation `receiving`, which
 * nothing shows or runs until `queueBulkOperation` ends the upload. The lines go in with
 * `appendBulkUploadLines` as they arrive, so a large file is never held whole in memory.
 */
export async function startBulkUpload(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | 'ids' | 'brands'>>; clock: Clock },
  input: { brandId: number; userId: number | null; type: BulkOperationType },
): Promise<BulkOperation> {
  return deps.uow.run(async (tx) => {
    // A request's brand exists; the operator's `brand import --brand <id>` may name none.
    if (!(await tx.brands.findById(input.brandId))) throw DomainError.notFound('brand', input.brandId);
    const [id] = await tx.ids.next('bulk_operations');
    const operation: BulkOperation = {
      id: id!,
      brandId: input.brandId,
      type: input.type,
      status: 'receiving',
      userId: input.userId,
      totalLines: 0,
      processedLines: 0,
      failedLines: 0,
      createdAt: deps.clock.now(),
      startedAt: null,
      finishedAt: null,
      error: null,
    };
    await tx.bulkOperations.insert(operation);
    return operation;
  });
}
