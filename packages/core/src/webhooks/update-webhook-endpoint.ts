import { Clock } from '../shared/clock.ports';
import { ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findWebhookEndpointOrFail } from './find-webhook-endpoint';
import { checkSubscribedEvents, checkWebhookDescription, checkWebhookUrl } from './webhook-rules';
import { WebhookEndpoint } from './webhook.entities';

/** What `PATCH /v10/webhook-endpoints/{id}` may change; fields left out keep their value. */
export interface WebhookEndpointChanges {
  url?: string;
  events?: string[];
  /** null clears it. */
  description?: string | null;
  enabled?: boolean;
}

/** Changes an endpoint's URL, subscriptions, description or whether it is enabled; its secret stays. */
export async function updateWebhookEndpoint(
  deps: { uow: UnitOfWork<Pick<Repositories, 'webhookEndpoints'>>; clock: Clock },
  input: { brandId: number; id: number; changes: WebhookEndpointChanges },
): Promise<WebhookEndpoint> {
  const { changes } = input;
  const violations = new ViolationList();
  const url = changes.url?.trim();
  if (url !== undefined) checkWebhookUrl(url, violations);
  const events = changes.events === undefined ? undefined : checkSubscribedEvents(changes.events, violations);
  const description = changes.description === undefined ? undefined : changes.description?.trim() || null;
  if (description !== undefined) checkWebhookDescription(description, violations);
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    const endpoint = await findWebhookEndpointOrFail(tx, input.brandId, input.id);
    const updated: WebhookEndpoint = {
      ...endpoint,
      ...(url !== undefined ? { url } : {}),
      ...(events !== undefined ? { events } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
      updatedAt: deps.clock.now(),
    };
    await tx.webhookEndpoints.save(updated);
    return updated;
  });
}
