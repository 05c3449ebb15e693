import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkOperation } from './bulk-operation.entities';

/**
 * An operation as the operator's CLI asks for it (`brand bulk-status <id> [--brand <id>]`): by id
 * alone in whichever brand has it, or within the brand given. Not found either way is a 404-like
 * refusal naming the id.
 */
export async function findBulkOperationForOperator(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  input: { id: number; brandId?: number },
): Promise<BulkOperation> {
  const operation = await deps.uow.read((repos) =>
    input.brandId === undefined
      ? repos.bulkOperations.findByIdAnyBrand(input.id)
      : repos.bulkOperations.findById(input.brandId, input.id),
  );
  if (!operation) throw DomainError.notFound('bulk operation', input.id);
  return operation;
}
