import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/** Gives up a stopping dispatcher's claims, so other dispatchers take the deliveries at once instead of after the lease. */
export async function releaseWebhookClaims(
  deps: { uow: UnitOfWork<Pick<Repositories, 'webhookDeliveries'>> },
  input: { owner: string },
): Promise<void> {
  await deps.uow.run((tx) => tx.webhookDeliveries.release(input.owner));
}
