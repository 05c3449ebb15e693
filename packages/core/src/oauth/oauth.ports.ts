import { GrantAccessTokenLink, OAuthAuthorizationCode, OAuthGrant, OAuthRefreshToken } from './oauth.entities';

/**
 * A brand's OAuth grants and the links to the access tokens issued in them. Every method takes
 * the brand: another brand's grant is never found, held, revoked or linked.
 * @example const grant = await tx.oauthGrants.findById(brandId, refreshToken.grantId);
 */
export interface OAuthGrantRepository {
  insert(grant: OAuthGrant): Promise<void>;
  findById(brandId: number, id: number): Promise<OAuthGrant | null>;
  /**
   * The grant if it is not revoked, held until the transaction ends (a row lock on Postgres;
   * SQLite serialises writers anyway): a concurrent `revoke` waits for this transaction, so it
   * then finds every token this transaction issues in the grant, and a grant revoked first is
   * answered as null instead.
   */
  holdLive(brandId: number, id: number): Promise<OAuthGrant | null>;
  /** Marks the grant revoked at `at`; false (and nothing changed) when it was revoked already or does not exist. */
  revoke(brandId: number, id: number, at: string): Promise<boolean>;
  /** Records that an access token was issued in a grant. */
  linkAccessToken(link: GrantAccessTokenLink): Promise<void>;
  /** The ids of the grant's access tokens that have not expired at `at` (revoked or not), ascending. */
  accessTokenIdsLiveAt(brandId: number, grantId: number, at: string): Promise<number[]>;
}

/**
 * Authorization codes, stored by the hash of the code. The changes are conditional updates, so
 * of concurrent callers exactly one succeeds, on every adapter.
 * @example const code = await tx.oauthAuthorizationCodes.findByHash(brandId, hasher.hash(plainCode));
 */
export interface OAuthAuthorizationCodeRepository {
  insert(code: OAuthAuthorizationCode): Promise<void>;
  findByHash(brandId: number, codeHash: string): Promise<OAuthAuthorizationCode | null>;
  findById(brandId: number, id: number): Promise<OAuthAuthorizationCode | null>;
  /** Marks the code used at `at` if it is unused and has not expired at `at`; true for exactly one caller. */
  markUsed(brandId: number, id: number, at: string): Promise<boolean>;
  /**
   * Records that a used code was presented again (keeping the first such instant) and answers the
   * grant its first use created, or null when that has not been linked (yet): once this is
   * recorded, `linkGrant` refuses, so no tokens are issued from the code afterwards.
   */
  markReused(brandId: number, id: number, at: string): Promise<number | null>;
  /** Links a used code to the grant its use created, if it has none and was not presented again; false otherwise. */
  linkGrant(brandId: number, id: number, grantId: number): Promise<boolean>;
}

/**
 * Refresh tokens, stored by the hash of the token. The changes are conditional updates, so of
 * concurrent callers exactly one succeeds, on every adapter.
 * @example const token = await tx.oauthRefreshTokens.findByHash(brandId, hasher.hash(plainToken));
 */
export interface OAuthRefreshTokenRepository {
  insert(token: OAuthRefreshToken): Promise<void>;
  findByHash(brandId: number, tokenHash: string): Promise<OAuthRefreshToken | null>;
  findById(brandId: number, id: number): Promise<OAuthRefreshToken | null>;
  /** Marks the token spent at `at` if it is neither spent nor revoked and has not expired at `at`; true for exactly one caller. */
  markSpent(brandId: number, id: number, at: string): Promise<boolean>;
  /** Records the successor of a spent token, if it has none yet; false otherwise (one spent token, one successor). */
  markReplaced(brandId: number, id: number, replacedById: number): Promise<boolean>;
  /** Marks every refresh token of the grant that is not revoked yet as revoked at `at`. */
  revokeForGrant(brandId: number, grantId: number, at: string): Promise<void>;
}

/** The OAuth module's repositories; the declaration below adds them to `Repositories`. */
export interface OAuthRepositories {
  oauthGrants: OAuthGrantRepository;
  oauthAuthorizationCodes: OAuthAuthorizationCodeRepository;
  oauthRefreshTokens: OAuthRefreshTokenRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends OAuthRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The OAuth module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    oauth_grants: true;
    oauth_authorization_codes: true;
    oauth_refresh_tokens: true;
  }
}
