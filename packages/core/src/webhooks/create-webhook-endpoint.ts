import { Clock } from '../shared/clock.ports';
import { SecretHasher } from '../identity/identity.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { checkSubscribedEvents, checkWebhookDescription, checkWebhookUrl, newWebhookSecret } from './webhook-rules';
import { WebhookEndpoint, WebhookEndpointWithSecret } from './webhook.entities';

/**
 * Registers a webhook endpoint (`POST /v10/webhook-endpoints`) with a new signing secret, which
 * this answer shows and later reads do not (only a rotation shows a new one).
 *
 * @example
 * const { endpoint, secret } = await createWebhookEndpoint({ uow, clock, hasher }, { brandId, url: 'https://erp.example.com/hooks', events: ['order.created'] });
 */
export async function createWebhookEndpoint(
  deps: { uow: UnitOfWork<Pick<Repositories, 'ids' | 'webhookEndpoints'>>; clock: Clock; hasher: SecretHasher },
  input: { brandId: number; url: string; events: string[]; description?: string | null; enabled?: boolean },
): Promise<WebhookEndpointWithSecret> {
  const violations = new ViolationList();
  const url = input.url.trim();
  checkWebhookUrl(url, violations);
  const events = checkSubscribedEvents(input.events, violations);
  const description = input.description?.trim() || null;
  checkWebhookDescription(description, violations);
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    const [id] = await tx.ids.next('webhook_endpoints');
    const now = deps.clock.now();
    const secret = newWebhookSecret(deps.hasher);
    const endpoint: WebhookEndpoint = {
      id: id!,
      brandId: input.brandId,
      url,
      events,
      description,
      enabled: input.enabled ?? true,
      secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    await tx.webhookEndpoints.save(endpoint);
    return { endpoint, secret };
  });
}
