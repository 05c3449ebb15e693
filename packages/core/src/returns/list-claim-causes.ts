import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ClaimCause } from './return.entities';
import { claimCauseListDefinition } from './return.list-definitions';

/** Lists a brand's claim causes (`GET /v10/claim-causes`). */
export async function listClaimCauses(
  deps: { uow: UnitOfWork<Pick<Repositories, 'claimCauses'>> },
  request: ListRequest,
): Promise<{ page: Page<ClaimCause>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(claimCauseListDefinition, request, (q) => repos.claimCauses.list(request.brandId, q)),
  );
}
