import { open } from 'node:fs/promises';
import {
  BulkOperation,
  BulkOperationType,
  Clock,
  DomainError,
  Repositories,
  UnitOfWork,
  discardBulkUpload,
  queueBulkOperation,
  startBulkUpload,
} from '@brand/core';
import { UploadTooLarge, storeNdjsonLines } from './ndjson-lines';

/**
 * Submits a JSON-lines file of the machine as a bulk operation of a brand (`brand import`): the
 * same upload as `POST /v10/bulk-operations`, the lines streamed from the file into storage under
 * the same limits, then queued. Submitted by the operator, so no user is recorded. A file that
 * cannot be read, is over the limits or has no lines leaves nothing behind.
 */
export async function submitBulkFile(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | 'ids' | 'brands'>>; clock: Clock; maxBytes: number },
  input: { brandId: number; type: BulkOperationType; file: string },
): Promise<BulkOperation> {
  const file = await open(input.file).catch((error: NodeJS.ErrnoException) => {
    throw DomainError.validation([
      { pointer: '', detail: `cannot read ${input.file}: ${error.code ?? error.message}` },
    ]);
  });
  try {
    return await submitOpenFile(deps, input, file.createReadStream({ autoClose: false }));
  } finally {
    await file.close();
  }
}

async function submitOpenFile(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | 'ids' | 'brands'>>; clock: Clock; maxBytes: number },
  input: { brandId: number; type: BulkOperationType; file: string },
  lines: AsyncIterable<Buffer>,
): Promise<BulkOperation> {
  const operation = await startBulkUpload(deps, { brandId: input.brandId, userId: null, type: input.type });
  const target = { brandId: operation.brandId, operationId: operation.id };
  try {
    const stored = await storeNdjsonLines(deps, lines, target, deps.maxBytes);
    if (stored.totalLines === 0)
      throw DomainError.validation([{ pointer: '', detail: `${input.file} has no lines: one JSON item per line` }]);
    return await queueBulkOperation(deps, { ...target, totalLines: stored.totalLines });
  } catch (error) {
    await discardBulkUpload(deps, target).catch(() => undefined);
    if (error instanceof UploadTooLarge) throw DomainError.validation([{ pointer: '', detail: error.message }]);
    throw error;
  }
}
