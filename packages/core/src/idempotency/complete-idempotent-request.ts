import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { IdempotencyScope, StoredAnswer } from './idempotency.entities';

/**
 * Stores an idempotent request's answer in `tx`, the transaction of the change it answers, so the
 * change and its answer commit together (a crash after the commit still leaves the answer to
 * replay). When the key's claim was taken over meanwhile (this request outlived its lease and a
 * retry runs it), it throws `idempotency_key_in_use`, which rolls the change back: the key's
 * request runs once.
 * @example await completeIdempotentRequest(tx, scope, claimToken, { status: 201, body, location });
 */
export async function completeIdempotentRequest(
  tx: Pick<Repositories, 'idempotencyKeys'>,
  scope: IdempotencyScope,
  claimToken: string,
  answer: StoredAnswer,
): Promise<void> {
  if (!(await tx.idempotencyKeys.complete(scope, claimToken, answer))) throw idempotencyKeyInUse();
}

/** The refusal of a request whose key another request with the same key holds. */
export function idempotencyKeyInUse(): DomainError {
  return new DomainError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still running; retry after it finished to get its answer',
  );
}

/** The refusal of a key first used with another method, path or body. */
export function idempotencyKeyReused(): DomainError {
  return new DomainError(
    'idempotency_key_reused',
    'This Idempotency-Key was used with another request (method, path or body); use a new key for a new request',
  );
}
