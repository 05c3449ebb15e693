import { Scope } from '../identity/scopes';

/** How long an authorization code can be exchanged for tokens (DESIGN §11: "a code works once and for 10 minutes"). */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 10 * 60;

/** How long an access token issued through OAuth lives unless the caller says otherwise (DESIGN §11: 1 hour). */
export const DEFAULT_OAUTH_ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60;

/**
 * How long a refresh token lives unless the caller says otherwise: 30 days. Each rotation issues
 * a new one with a full lifetime, so a grant in use lives on and one left unused for 30 days ends.
 */
export const DEFAULT_REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/**
 * The PKCE methods accepted (RFC 7636): S256 only. `plain` would put the verifier itself in the
 * authorization request, which is what PKCE is there to keep out of it.
 */
export const PKCE_METHODS = ['S256'] as const;

/** One of `PKCE_METHODS`. */
export type PkceMethod = (typeof PKCE_METHODS)[number];

/**
 * One consent of a user to an app for some scopes (DESIGN §11). Every access token and refresh
 * token issued through OAuth belongs to a grant; revoking the grant revokes all of them.
 */
export interface OAuthGrant {
  id: number;
  brandId: number;
  appId: number;
  userId: number;
  /** What the user consented to; a refresh may narrow the scopes of its tokens, never widen them beyond these. */
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

/**
 * An authorization code: issued when the user allows an app, exchanged once (within
 * `AUTHORIZATION_CODE_LIFETIME_SECONDS`) for the grant's first tokens. Stored only as a hash.
 */
export interface OAuthAuthorizationCode {
  id: number;
  brandId: number;
  appId: number;
  userId: number;
  codeHash: string;
  /** The redirect URI of the authorization request; the token request must send the same one. */
  redirectUri: string;
  scopes: Scope[];
  /** The PKCE challenge: BASE64URL(SHA-256(code_verifier)), 43–128 characters. */
  codeChallenge: string;
  codeChallengeMethod: PkceMethod;
  expiresAt: string;
  /** When the code was consumed (it works once); null while unused. */
  usedAt: string | null;
  /** When a used code was first presented again (RFC 6749 §4.1.2); such a code's grant is revoked. */
  reusedAt: string | null;
  /** The grant its use created, once the tokens are issued. */
  grantId: number | null;
  createdAt: string;
}

/**
 * A refresh token of a grant, stored only as a hash. It is spent by its first use, which issues
 * its successor (rotation); presenting a spent one again revokes the whole grant.
 */
export interface OAuthRefreshToken {
  id: number;
  brandId: number;
  grantId: number;
  tokenHash: string;
  expiresAt: string;
  /** When it was used to refresh (it works once); null while unused. */
  spentAt: string | null;
  /** When its grant was revoked. */
  revokedAt: string | null;
  /** The refresh token issued when this one was spent. */
  replacedById: number | null;
  createdAt: string;
}

/**
 * That an access token was issued in a grant. The access token itself is a row of the identity
 * module (the same kind the API verifies on every request); this link, kept in the OAuth module,
 * is how revoking a grant finds its access tokens.
 */
export interface GrantAccessTokenLink {
  brandId: number;
  grantId: number;
  accessTokenId: number;
  /** The access token's expiry: a revocation skips the links of tokens that expired already. */
  expiresAt: string;
}

/** Lifetimes of the tokens a grant issues, in seconds; each defaults as its constant says. */
export interface GrantTokenLifetimes {
  /** Default `DEFAULT_OAUTH_ACCESS_TOKEN_LIFETIME_SECONDS` (1 hour). */
  accessTokenLifetimeSeconds?: number;
  /** Default `DEFAULT_REFRESH_TOKEN_LIFETIME_SECONDS` (30 days). */
  refreshTokenLifetimeSeconds?: number;
}

/** Tokens issued in a grant. The plain `accessToken` and `refreshToken` are shown here once; storage keeps their hashes. */
export interface GrantTokens {
  grant: OAuthGrant;
  accessToken: string;
  accessTokenId: number;
  /** When the access token expires. */
  expiresAt: string;
  refreshToken: string;
  refreshTokenId: number;
  refreshTokenExpiresAt: string;
  /** The access token's scopes: the grant's, or fewer when a refresh narrowed them. */
  scopes: Scope[];
}
