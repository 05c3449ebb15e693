import { ExportMark } from '../documents/document.entities';
import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { marksByDocument } from '../orders/marks-by-document';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Return } from './return.entities';
import { returnListDefinition } from './return.list-definitions';

/** Lists a brand's returns with their lines (`GET /v10/returns`), with each return's export marks. */
export async function listReturns(
  deps: { uow: UnitOfWork<Pick<Repositories, 'exportMarks' | 'returns'>> },
  request: ListRequest,
): Promise<{ page: Page<Return>; query: ListQuery; exports: Map<number, ExportMark[]> }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(returnListDefinition, request, (q) => repos.returns.list(request.brandId, q));
    const exports = await marksByDocument(
      repos,
      request.brandId,
      'return',
      page.items.map((r) => r.id),
    );
    return { page, query, exports };
  });
}
