import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Alert } from './return.entities';
import { alertListDefinition } from './return.list-definitions';

/** The brand's dashboard alerts (`GET /v10/alerts`): open ones are decisions waiting for staff (filter status=open). */
export async function listAlerts(
  deps: { uow: UnitOfWork<Pick<Repositories, 'alerts'>> },
  request: ListRequest,
): Promise<{ page: Page<Alert>; query: ListQuery }> {
  return deps.uow.read((repos) => runList(alertListDefinition, request, (q) => repos.alerts.list(request.brandId, q)));
}
