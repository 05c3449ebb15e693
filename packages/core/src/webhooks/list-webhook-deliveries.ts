import { ListQuery, Page } from '../listing/list-query';
import { ListRequest, runList } from '../listing/run-list';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findWebhookEndpointOrFail } from './find-webhook-endpoint';
import { WebhookDelivery } from './webhook.entities';
import { webhookDeliveryListDefinition } from './webhook.list-definitions';

/** Lists an endpoint's deliveries (`GET /v10/webhook-endpoints/{id}/deliveries`); another brand's endpoint is not found. */
export async function listWebhookDeliveries(
  deps: { uow: UnitOfWork<Pick<Repositories, 'webhookDeliveries' | 'webhookEndpoints'>> },
  request: ListRequest & { endpointId: number },
): Promise<{ page: Page<WebhookDelivery>; query: ListQuery }> {
  return deps.uow.read(async (repos) => {
    await findWebhookEndpointOrFail(repos, request.brandId, request.endpointId);
    return runList(webhookDeliveryListDefinition, request, (q) =>
      repos.webhookDeliveries.listForEndpoint(request.brandId, request.endpointId, q),
    );
  });
}
