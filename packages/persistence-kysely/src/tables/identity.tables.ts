/** Row types of the identity tables. Booleans are stored as 0/1 and timestamps as ISO-8601 UTC text in both dialects. */
export interface BrandsTable {
  id: number;
  name: string;
  currency: string;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: number;
  brand_id: number;
  email: string;
  name: string;
  created_at: string;
  /** `scrypt$N$r$p$salt$hash`; null for a user who does not log in (migration 0009). */
  password_hash: string | null;
  /** The e-mail address in lower case, unique, set exactly when `password_hash` is. */
  login_email: string | null;
}

export interface ApiAppsTable {
  id: number;
  brand_id: number;
  /** The public OAuth client id, unique across brands (migration 0010). */
  client_id: string;
  name: string;
  app_key_hash: string;
  internal_code: string | null;
  created_at: string;
}

export interface AccessTokensTable {
  id: number;
  brand_id: number;
  user_id: number;
  app_id: number;
  token_hash: string;
  /** JSON array of scope strings. */
  scopes: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

export interface RequestLogsTable {
  id: number;
  brand_id: number;
  user_id: number;
  app_id: number;
  token_id: number;
  method: string;
  path: string;
  /** The answering route's template (0021); null for requests recorded before. */
  route: string | null;
  status: number;
  duration_ms: number;
  request_id: string;
  /** The request's OpenTelemetry trace id (0022); null without tracing and for requests recorded before. */
  trace_id: string | null;
  created_at: string;
}

/** An app's registered OAuth redirect URIs, keyed (brand_id, app_id, uri); `position` keeps their order. */
export interface ApiAppRedirectUrisTable {
  brand_id: number;
  app_id: number;
  uri: string;
  position: number;
}

/** The single row (id 1) whose revision advances whenever stored credentials stop being valid. */
export interface CredentialsRevisionTable {
  id: number;
  revision: number;
}

declare module '../database' {
  /** The identity tables. */
  interface Database {
    brands: BrandsTable;
    users: UsersTable;
    api_apps: ApiAppsTable;
    api_app_redirect_uris: ApiAppRedirectUrisTable;
    access_tokens: AccessTokensTable;
    request_logs: RequestLogsTable;
    credentials_revision: CredentialsRevisionTable;
  }
}
