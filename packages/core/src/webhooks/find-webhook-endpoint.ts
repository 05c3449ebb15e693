import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { WebhookEndpoint } from './webhook.entities';

/** The brand's endpoint, or `not_found` (another brand's endpoint is not found either). */
export async function findWebhookEndpointOrFail(
  repos: Pick<Repositories, 'webhookEndpoints'>,
  brandId: number,
  id: number,
): Promise<WebhookEndpoint> {
  const [endpoint] = await repos.webhookEndpoints.findByIds(brandId, [id]);
  if (!endpoint) throw DomainError.notFound('webhook endpoint', id);
  return endpoint;
}
