import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { BulkLineResult } from './bulk-operation.entities';

/**
 * The per-line report of an operation (`GET /v10/bulk-operations/{id}/results`), page by page in
 * line order, so a report of a million lines is streamed rather than held: `pages` yields until
 * the lines run so far are all read. Another brand's operation is not found (checked before the
 * first page, so the caller can still answer 404).
 */
export async function readBulkOperationResults(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  input: { brandId: number; id: number; pageSize: number },
): Promise<{ pages: AsyncIterable<BulkLineResult[]> }> {
  const operation = await deps.uow.read((repos) => repos.bulkOperations.findById(input.brandId, input.id));
  if (!operation) throw DomainError.notFound('bulk operation', input.id);
  async function* pages(): AsyncIterable<BulkLineResult[]> {
    let after = 0;
    for (;;) {
      const page = await deps.uow.read((repos) =>
        repos.bulkOperations.results(input.brandId, input.id, after, input.pageSize),
      );
      if (page.length === 0) return;
      yield page;
      after = page[page.length - 1]!.line;
    }
  }
  return { pages: pages() };
}
