/** Row type of idempotency keys (DESIGN §12), keyed by (brand_id, app_id, key); the answer columns are null while the request runs. */
export interface IdempotencyKeysTable {
  brand_id: number;
  app_id: number;
  key: string;
  fingerprint: string;
  status: 'running' | 'done';
  claim_token: string | null;
  locked_until: string;
  created_at: string;
  answer_status: number | null;
  answer_body: string | null;
  answer_location: string | null;
}

declare module '../database' {
  /** The idempotency tables. */
  interface Database {
    idempotency_keys: IdempotencyKeysTable;
  }
}
