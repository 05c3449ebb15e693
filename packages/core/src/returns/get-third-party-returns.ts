import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ReturnView, loadReturnViews } from './return-view';

/** Returns of the brand by id in the 3PL form (ids not found are left out), as a 3PL mark-as-exported answers with them. */
export async function getThirdPartyReturns(
  deps: { uow: UnitOfWork<Pick<Repositories, 'customers' | 'exportMarks' | 'returns'>> },
  input: { brandId: number; returnIds: readonly number[] },
): Promise<ReturnView[]> {
  return deps.uow.read(async (repos) =>
    loadReturnViews(repos, input.brandId, await repos.returns.findByIds(input.brandId, [...new Set(input.returnIds)])),
  );
}
