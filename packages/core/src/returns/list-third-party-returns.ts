import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { thirdPartyReturnListDefinition } from './return.list-definitions';
import { ReturnView, loadReturnViews } from './return-view';

/** The warehouse's list (`GET /3pl/returns`): returns of every status with their customer and marks, for the 3PL form. */
export async function listThirdPartyReturns(
  deps: { uow: UnitOfWork<Pick<Repositories, 'customers' | 'exportMarks' | 'returns'>> },
  request: ListRequest,
): Promise<{ page: Page<ReturnView>; query: ListQuery }> {
  return deps.uow.read(async (repos) => {
    const { page, query } = await runList(thirdPartyReturnListDefinition, request, (q) =>
      repos.returns.list(request.brandId, q),
    );
    const items = await loadReturnViews(repos, request.brandId, page.items);
    return { page: { ...page, items }, query };
  });
}
