import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findWebhookEndpointOrFail } from './find-webhook-endpoint';
import { WebhookDelivery } from './webhook.entities';

/**
 * Queues a delivery again (`POST /v10/webhook-endpoints/{id}/deliveries/{deliveryId}/retry`): it
 * becomes pending and due at once, with the same `webhook-id`; its attempts count on, so a failed
 * delivery gets one more attempt (and the rest of the schedule only if that fails too).
 */
export async function retryWebhookDelivery(
  deps: { uow: UnitOfWork<Pick<Repositories, 'webhookDeliveries' | 'webhookEndpoints'>>; clock: Clock },
  input: { brandId: number; endpointId: number; deliveryId: number },
): Promise<WebhookDelivery> {
  return deps.uow.run(async (tx) => {
    await findWebhookEndpointOrFail(tx, input.brandId, input.endpointId);
    const [delivery] = await tx.webhookDeliveries.findByIds(input.brandId, [input.deliveryId]);
    if (!delivery || delivery.endpointId !== input.endpointId)
      throw DomainError.notFound('webhook delivery', input.deliveryId);
    const now = deps.clock.now();
    const queued: WebhookDelivery = { ...delivery, status: 'pending', nextAttemptAt: now, updatedAt: now };
    await tx.webhookDeliveries.save(queued);
    return queued;
  });
}
