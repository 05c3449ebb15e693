import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { DomainEvent } from './event.entities';
import { eventListDefinition } from './event.list-definitions';

/** Lists a brand's events (`GET /v10/events`): the feed for integrations that poll. */
export async function listEvents(
  deps: { uow: UnitOfWork<Pick<Repositories, 'events'>> },
  request: ListRequest,
): Promise<{ page: Page<DomainEvent>; query: ListQuery }> {
  return deps.uow.read((repos) => runList(eventListDefinition, request, (q) => repos.events.list(request.brandId, q)));
}
