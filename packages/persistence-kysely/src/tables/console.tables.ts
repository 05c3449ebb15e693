/** Row type of console sessions (DESIGN §11), keyed by (brand_id, id) (DESIGN §9); the cookie's secret is stored only as its SHA-256 hash. */
export interface ConsoleSessionsTable {
  brand_id: number;
  id: number;
  user_id: number;
  secret_hash: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

declare module '../database' {
  /** The console tables. */
  interface Database {
    console_sessions: ConsoleSessionsTable;
  }
}
