/**
 * Row types of the OAuth tables (DESIGN §11), keyed by (brand_id, id) (DESIGN §9). `scopes` is a
 * JSON array of scope strings; codes and refresh tokens are stored only as SHA-256 hashes.
 */
export interface OAuthGrantsTable {
  brand_id: number;
  id: number;
  app_id: number;
  user_id: number;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

/** Which access tokens (rows of `access_tokens`) were issued in which grant, with their expiry. */
export interface OAuthGrantAccessTokensTable {
  brand_id: number;
  grant_id: number;
  access_token_id: number;
  expires_at: string;
}

export interface OAuthAuthorizationCodesTable {
  brand_id: number;
  id: number;
  app_id: number;
  user_id: number;
  code_hash: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string;
  code_challenge_method: string;
  expires_at: string;
  used_at: string | null;
  reused_at: string | null;
  grant_id: number | null;
  created_at: string;
}

export interface OAuthRefreshTokensTable {
  brand_id: number;
  id: number;
  grant_id: number;
  token_hash: string;
  expires_at: string;
  spent_at: string | null;
  revoked_at: string | null;
  replaced_by_id: number | null;
  created_at: string;
}

declare module '../database' {
  /** The OAuth tables. */
  interface Database {
    oauth_grants: OAuthGrantsTable;
    oauth_grant_access_tokens: OAuthGrantAccessTokensTable;
    oauth_authorization_codes: OAuthAuthorizationCodesTable;
    oauth_refresh_tokens: OAuthRefreshTokensTable;
  }
}
