import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { WebhookEndpoint } from './webhook.entities';
import { webhookEndpointListDefinition } from './webhook.list-definitions';

/** Lists a brand's webhook endpoints (`GET /v10/webhook-endpoints`). */
export async function listWebhookEndpoints(
  deps: { uow: UnitOfWork<Pick<Repositories, 'webhookEndpoints'>> },
  request: ListRequest,
): Promise<{ page: Page<WebhookEndpoint>; query: ListQuery }> {
  return deps.uow.read((repos) =>
    runList(webhookEndpointListDefinition, request, (q) => repos.webhookEndpoints.list(request.brandId, q)),
  );
}
