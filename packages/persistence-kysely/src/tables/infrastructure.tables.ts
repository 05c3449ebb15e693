/** Counters behind the id generator on SQLite (Postgres uses native sequences). */
export interface IdCountersTable {
  kind: string;
  value: number;
}

/** Per-brand document number series; the row is locked by the transaction that draws a number. */
export interface DocumentSequencesTable {
  brand_id: number;
  kind: string;
  last_value: number;
}

export interface RateLimitCountersTable {
  key: string;
  hits: number;
  reset_at_ms: number;
}

export interface SharedSecretsTable {
  name: string;
  value: string;
}

/** Unfiltered list totals per brand, maintained with every insert and delete. */
export interface RowCountsTable {
  brand_id: number;
  resource: string;
  row_count: number;
}

/**
 * Values unique across brands that arrive before the brand is known (a token's hash, a login
 * e-mail, an OAuth client id, the public ids of order channels and return portals), each mapped to
 * its brand (DESIGN §9). Its primary key `(kind, value)` is what keeps the value unique.
 */
export interface BrandLookupsTable {
  kind: string;
  value: string;
  brand_id: number;
}
