import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findWebhookEndpointOrFail } from './find-webhook-endpoint';
import { WebhookEndpoint } from './webhook.entities';

/** One endpoint of the brand (`GET /v10/webhook-endpoints/{id}`). */
export async function getWebhookEndpoint(
  deps: { uow: UnitOfWork<Pick<Repositories, 'webhookEndpoints'>> },
  input: { brandId: number; id: number },
): Promise<WebhookEndpoint> {
  return deps.uow.read((repos) => findWebhookEndpointOrFail(repos, input.brandId, input.id));
}
