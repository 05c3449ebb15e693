import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/**
 * Deletes an upload that did not complete (too large, the client went away, a refusal), with the
 * lines stored so far; an upload that was queued meanwhile stays. Safe to call more than once.
 */
export async function discardBulkUpload(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  input: { brandId: number; operationId: number },
): Promise<void> {
  await deps.uow.run((tx) => tx.bulkOperations.discardReceiving(input.brandId, input.operationId));
}
