/** The answer an idempotent request gave, as stored for its replays. */
export interface StoredAnswer {
  status: number;
  /** The JSON body as sent (empty for an answer without a body). */
  body: string;
  /** The `Location` header, when the answer had one. */
  location: string | null;
}

/**
 * One `Idempotency-Key` of one app of one brand (DESIGN §12): the request it was first used with
 * (its fingerprint) and, once that request finished, its answer. While the request runs, the
 * record is claimed by it (`claimToken`) until `lockedUntil`; a claim past that is presumed dead
 * (its process stopped) and may be taken over by a retry.
 */
export interface IdempotencyRecord {
  brandId: number;
  appId: number;
  key: string;
  /** SHA-256 of the method, path and canonical body the key was first used with. */
  fingerprint: string;
  status: 'running' | 'done';
  claimToken: string | null;
  lockedUntil: string;
  createdAt: string;
  answer: StoredAnswer | null;
}

/** Which record: the brand and app a key belongs to, and the key. */
export interface IdempotencyScope {
  brandId: number;
  appId: number;
  key: string;
}
