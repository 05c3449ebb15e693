import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkOperationLine } from './bulk-operation.entities';

/** Stores a batch of an upload's lines, in one transaction (the caller bounds the batch). */
export async function appendBulkUploadLines(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  input: { brandId: number; operationId: number; lines: readonly BulkOperationLine[] },
): Promise<void> {
  if (input.lines.length === 0) return;
  await deps.uow.run((tx) => tx.bulkOperations.appendLines(input.brandId, input.operationId, input.lines));
}
