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
  /**
   * Deletes at most `limit` grants of any brand in which nothing is live at `at`, with their
   * refresh tokens, access token links and the codes that created them: no refresh token that is
   * unrevoked, unexpired and not yet replaced (a spent one awaiting its successor counts as live,
   * so a rotation in progress never loses its grant), and no access token link unexpired. The
   * access tokens themselves stay (`AccessTokenRepository.deleteEndedBefore` has their rule).
   * Answers how many grants went; fewer than `limit` means none is left.
   */
  deleteEnded(at: string, limit: number): Promise<number>;
  /**
   * Deletes at most `limit` access token links of any brand whose token expired at or before `at`:
   * revoking a grant only looks for unexpired ones. Answers how many went.
   */
  deleteAccessTokenLinksExpiredBy(at: string, limit: number): Promise<number>;
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
  /**
   * Deletes at most `limit` codes of any brand that expired at or before `expiredBy` and created no
   * grant (unused, or used by an exchange that failed). A code that created a grant stays as long
   * as the grant, so presenting it again still revokes the grant; it goes with it
   * (`OAuthGrantRepository.deleteEnded`). Answers how many went.
   */
  deleteExpiredWithoutGrant(expiredBy: string, limit: number): Promise<number>;
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
  /**
   * Deletes at most `limit` refresh tokens of any brand that expired at or before `at`, spent or
   * not: an expired token is refused anyway, and a spent one kept until then still revokes its
   * grant when presented again. Answers how many went.
   */
  deleteExpiredBy(at: string, limit: number): Promise<number>;
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
