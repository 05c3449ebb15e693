import { IdempotencyRecord, IdempotencyScope, StoredAnswer } from './idempotency.entities';

/**
 * Idempotency keys, one record per (brand, app, key). Claims are conditional writes, so two
 * requests (in any number of processes) never both own a key: `claim` inserts only where no record
 * is, and `complete`, `takeOver` and `release` change a record only while its claim is the one
 * named.
 * @example const existing = await tx.idempotencyKeys.claim(record); // null: claimed
 */
export interface IdempotencyKeyRepository {
  /** Inserts `record` (status `running`) unless the key has one: then answers that one, unchanged. */
  claim(record: IdempotencyRecord): Promise<IdempotencyRecord | null>;
  /**
   * Gives the key to a new claim (`record`, status `running`, no answer) when its record is
   * created before `expiredBefore` (any status: a key may be used afresh after its retention) or is
   * a claim of `record.fingerprint` locked until no later than `record.createdAt` (its request
   * stopped without an answer). False: the record was neither.
   */
  takeOver(record: IdempotencyRecord, expiredBefore: string): Promise<boolean>;
  /** Stores the answer and ends the claim `claimToken`; false when the key is no longer claimed by it. */
  complete(scope: IdempotencyScope, claimToken: string, answer: StoredAnswer): Promise<boolean>;
  /** Deletes the record while claimed by `claimToken` (its request answered nothing worth keeping). */
  release(scope: IdempotencyScope, claimToken: string): Promise<void>;
  /** Deletes at most `limit` records of any brand created before `cutoff`; answers how many went. */
  deleteCreatedBefore(cutoff: string, limit: number): Promise<number>;
}

/** The idempotency module's repositories; the declaration below adds them to `Repositories`. */
export interface IdempotencyRepositories {
  idempotencyKeys: IdempotencyKeyRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends IdempotencyRepositories {}
}
