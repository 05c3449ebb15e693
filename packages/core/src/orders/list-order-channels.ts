import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { OrderChannel } from './order.entities';
import { orderChannelListDefinition } from './order.list-definitions';

/** Lists a brand's order channels (`GET /v10/order-channels`). */
export async function listOrderChannels(
  deps: { uow: UnitOfWork<Pick<Repositories, 'orderChannels'>> },
  request: ListRequest,
): Promise<{ page: Page<OrderChannel>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(orderChannelListDefinition, request, (q) => repos.orderChannels.list(request.brandId, q)),
  );
}
