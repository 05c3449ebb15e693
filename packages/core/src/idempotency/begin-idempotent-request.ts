import { SecretHasher } from '../identity/identity.ports';
import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { IdempotencyRecord, IdempotencyScope, StoredAnswer } from './idempotency.entities';
import { IDEMPOTENCY_CLAIM_LEASE_MS, IDEMPOTENCY_KEY_RETENTION_MS } from './idempotency-rules';

/** What a request with an idempotency key is to do. */
export type IdempotentStart =
  /** Run: the key is now this request's, until it completes or releases `claimToken`. */
  | { kind: 'run'; claimToken: string }
  /** Answer the stored answer of the key's first request; run nothing. */
  | { kind: 'replay'; answer: StoredAnswer }
  /** The key's first request is still running: run nothing (409). */
  | { kind: 'in_use' }
  /** The key was first used with another request: run nothing (422). */
  | { kind: 'reused' };

/**
 * Looks up an idempotency key before its request runs (DESIGN §12), in a transaction of its own
 * so that a concurrent request with the same key sees the claim at once. An unused key (or one past
 * its 24 hours) is claimed; a key used with another fingerprint is `reused`; a finished one is
 * replayed; a running one is `in_use`, unless its claim lapsed (its process stopped mid-request,
 * nothing committed), when this request takes it over.
 * @example const start = await beginIdempotentRequest({ uow, clock, hasher }, { scope: { brandId, appId, key }, fingerprint });
 */
export async function beginIdempotentRequest(
  deps: { uow: UnitOfWork<Pick<Repositories, 'idempotencyKeys'>>; clock: Clock; hasher: SecretHasher },
  input: { scope: IdempotencyScope; fingerprint: string },
): Promise<IdempotentStart> {
  const now = deps.clock.now();
  const nowMs = Date.parse(now);
  const claimToken = deps.hasher.randomSecret();
  const record: IdempotencyRecord = {
    ...input.scope,
    fingerprint: input.fingerprint,
    status: 'running',
    claimToken,
    lockedUntil: new Date(nowMs + IDEMPOTENCY_CLAIM_LEASE_MS).toISOString(),
    createdAt: now,
    answer: null,
  };
  const expiredBefore = new Date(nowMs - IDEMPOTENCY_KEY_RETENTION_MS).toISOString();
  return deps.uow.run(async (tx): Promise<IdempotentStart> => {
    const existing = await tx.idempotencyKeys.claim(record);
    if (!existing) return { kind: 'run', claimToken };
    if (existing.createdAt < expiredBefore) {
      // Past its retention the key is free, whatever it was used for; pruning is only late.
      return (await tx.idempotencyKeys.takeOver(record, expiredBefore))
        ? { kind: 'run', claimToken }
        : { kind: 'in_use' };
    }
    if (existing.fingerprint !== input.fingerprint) return { kind: 'reused' };
    if (existing.status === 'done' && existing.answer) return { kind: 'replay', answer: existing.answer };
    if (existing.lockedUntil <= now && (await tx.idempotencyKeys.takeOver(record, expiredBefore)))
      return { kind: 'run', claimToken };
    return { kind: 'in_use' };
  });
}
