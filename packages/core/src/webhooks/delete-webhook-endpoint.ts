import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/** Deletes an endpoint (`DELETE /v10/webhook-endpoints/{id}`): it receives nothing from then on. */
export async function deleteWebhookEndpoint(
  deps: { uow: UnitOfWork<Pick<Repositories, 'webhookEndpoints'>> },
  input: { brandId: number; id: number },
): Promise<void> {
  const deleted = await deps.uow.run((tx) => tx.webhookEndpoints.delete(input.brandId, input.id));
  if (!deleted) throw DomainError.notFound('webhook endpoint', input.id);
}
