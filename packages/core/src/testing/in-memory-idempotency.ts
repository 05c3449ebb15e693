import { IdempotencyRecord, IdempotencyScope } from '../idempotency/idempotency.entities';
import { IdempotencyRepositories } from '../idempotency/idempotency.ports';
import { InMemoryFactories } from './in-memory-factories';
import { removeUpTo } from './in-memory-removal';

/** Idempotency keys in memory, with the semantics every adapter must match (the idempotency contract checks them). */
export interface IdempotencyState {
  idempotencyKeys: IdempotencyRecord[];
}

export function emptyIdempotencyState(): IdempotencyState {
  return { idempotencyKeys: [] };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const sameScope = (r: IdempotencyScope, scope: IdempotencyScope) =>
  r.brandId === scope.brandId && r.appId === scope.appId && r.key === scope.key;

export const inMemoryIdempotencyFactories: InMemoryFactories<IdempotencyRepositories, IdempotencyState> = {
  idempotencyKeys: (s) => ({
    async claim(record) {
      const existing = s().idempotencyKeys.find((r) => sameScope(r, record));
      if (existing) return clone(existing);
      s().idempotencyKeys.push(clone(record));
      return null;
    },
    async takeOver(record, expiredBefore) {
      const existing = s().idempotencyKeys.find((r) => sameScope(r, record));
      const free =
        existing &&
        (existing.createdAt < expiredBefore ||
          (existing.status === 'running' &&
            existing.fingerprint === record.fingerprint &&
            existing.lockedUntil <= record.createdAt));
      if (!existing || !free) return false;
      Object.assign(existing, clone(record));
      return true;
    },
    async complete(scope, claimToken, answer) {
      const existing = s().idempotencyKeys.find((r) => sameScope(r, scope));
      if (!existing || existing.status !== 'running' || existing.claimToken !== claimToken) return false;
      Object.assign(existing, { status: 'done', claimToken: null, answer: clone(answer) });
      return true;
    },
    async release(scope, claimToken) {
      s().idempotencyKeys = s().idempotencyKeys.filter(
        (r) => !(sameScope(r, scope) && r.status === 'running' && r.claimToken === claimToken),
      );
    },
    async deleteCreatedBefore(cutoff, limit) {
      return removeUpTo(s().idempotencyKeys, (r) => r.createdAt < cutoff, limit).length;
    },
  }),
};
