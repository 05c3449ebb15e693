import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkOperation } from './bulk-operation.entities';

/** One operation of the brand with its counts (`GET /v10/bulk-operations/{id}`); another brand's is not found. */
export async function getBulkOperation(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  input: { brandId: number; id: number },
): Promise<BulkOperation> {
  const operation = await deps.uow.read((repos) => repos.bulkOperations.findById(input.brandId, input.id));
  if (!operation) throw DomainError.notFound('bulk operation', input.id);
  return operation;
}
