import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { IdempotencyScope } from './idempotency.entities';

/**
 * Gives a key back after its request answered nothing worth replaying (a 5xx: the storage was
 * away, a bug), so a retry runs the request again instead of replaying a failure.
 * @example await releaseIdempotentRequest({ uow }, { scope, claimToken });
 */
export async function releaseIdempotentRequest(
  deps: { uow: UnitOfWork<Pick<Repositories, 'idempotencyKeys'>> },
  input: { scope: IdempotencyScope; claimToken: string },
): Promise<void> {
  await deps.uow.run((tx) => tx.idempotencyKeys.release(input.scope, input.claimToken));
}
