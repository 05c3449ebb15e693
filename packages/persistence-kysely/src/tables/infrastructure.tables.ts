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
