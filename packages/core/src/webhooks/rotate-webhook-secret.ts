import { Clock } from '../shared/clock.ports';
import { SecretHasher } from '../identity/identity.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { findWebhookEndpointOrFail } from './find-webhook-endpoint';
import { newWebhookSecret } from './webhook-rules';
import { ROTATED_SECRET_VALID_HOURS, WebhookEndpoint, WebhookEndpointWithSecret } from './webhook.entities';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Gives an endpoint a new signing secret (`POST /v10/webhook-endpoints/{id}/rotate-secret`). The
 * secret it replaces keeps signing deliveries beside the new one for 24 hours, so the receiver can
 * switch without refusing a delivery; rotating again within them drops the older one at once.
 */
export async function rotateWebhookSecret(
  deps: { uow: UnitOfWork<Pick<Repositories, 'webhookEndpoints'>>; clock: Clock; hasher: SecretHasher },
  input: { brandId: number; id: number },
): Promise<WebhookEndpointWithSecret> {
  return deps.uow.run(async (tx) => {
    const endpoint = await findWebhookEndpointOrFail(tx, input.brandId, input.id);
    const now = deps.clock.now();
    const secret = newWebhookSecret(deps.hasher);
    const rotated: WebhookEndpoint = {
      ...endpoint,
      secret,
      previousSecret: endpoint.secret,
      previousSecretExpiresAt: new Date(Date.parse(now) + ROTATED_SECRET_VALID_HOURS * HOUR_MS).toISOString(),
      updatedAt: now,
    };
    await tx.webhookEndpoints.save(rotated);
    return { endpoint: rotated, secret };
  });
}
