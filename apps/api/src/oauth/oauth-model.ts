import {
  AuthorizationCode,
  AuthorizationCodeModel,
  Client,
  InvalidGrantError,
  RefreshToken,
  RefreshTokenModel,
  Token,
  User,
} from '@node-oauth/oauth2-server';
import {
  ApiApp,
  Clock,
  GrantTokens,
  SecretHasher,
  UnitOfWork,
  authenticateOAuthClient,
  consumeAuthorizationCode,
  findAuthorizationCode,
  findRefreshToken,
  isDomainError,
  issueGrantTokens,
  rotateRefreshToken,
  spendRefreshToken,
} from '@brand/core';

/** The grant types the token endpoint serves (DESIGN §11); every other one is `unsupported_grant_type`. */
export const SUPPORTED_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

/** The property of `saveToken`'s answer holding the access token's lifetime in seconds, as issued. */
export const ACCESS_TOKEN_LIFETIME = 'accessTokenLifetimeSeconds';

/** The client as the library sees it: `id` is the public client id; the app rides along for the use cases. */
export interface OAuthModelClient extends Client {
  id: string;
  app: ApiApp;
}

export interface OAuthModelDeps {
  uow: UnitOfWork;
  clock: Clock;
  hasher: SecretHasher;
}

/**
 * The library's model on the core use cases, made for one token request. The library calls the
 * model with the plain code or token only, while the use cases take the client's brand and app and
 * the id of the code or refresh token found: the per-request instance keeps what an earlier call
 * learnt (the authenticated client, the code or refresh token found) for the later ones.
 *
 * Tokens are issued by the core (`issueGrantTokens`, `rotateRefreshToken`: opaque, stored hashed,
 * linked to their grant); the library's own random tokens, handed to `saveToken`, are ignored.
 */
export function createOAuthModel(deps: OAuthModelDeps): AuthorizationCodeModel & RefreshTokenModel {
  let client: OAuthModelClient | null = null;
  let authorizationCodeId: number | null = null;
  let refreshTokenId: number | null = null;

  /**
   * The library compares expiry instants with the wall clock (`new Date()`), while the core's
   * clock port is the authority here (tests fix it). The core has already refused what expired by
   * its clock; the library is handed the same remaining lifetime counted from the wall clock, so
   * its checks and its `expires_in` agree with the core.
   */
  const onWallClock = (at: string): Date => new Date(Date.now() + (Date.parse(at) - Date.parse(deps.clock.now())));

  const authenticated = (): OAuthModelClient => {
    if (!client) throw new Error('the OAuth model was asked about a code or token before the client was authenticated');
    return client;
  };

  const answer = (issued: GrantTokens, forClient: Client, user: User): Token => ({
    accessToken: issued.accessToken,
    accessTokenExpiresAt: onWallClock(issued.expiresAt),
    refreshToken: issued.refreshToken,
    refreshTokenExpiresAt: onWallClock(issued.refreshTokenExpiresAt),
    scope: issued.scopes,
    // The library derives `expires_in` from the expiry and the wall clock at answer time, a second
    // short when a tick passes; the router answers this, the lifetime by the core's clock.
    [ACCESS_TOKEN_LIFETIME]: Math.round((Date.parse(issued.expiresAt) - Date.parse(deps.clock.now())) / 1000),
    client: forClient,
    user,
  });

  /** A step refused by the core because a concurrent request got there first (a replay, a second rotation) is the client's grant gone bad. */
  const asInvalidGrant = (error: unknown): never => {
    if (isDomainError(error) && (error.code === 'invalid_state_transition' || error.code === 'not_found'))
      throw new InvalidGrantError('Invalid grant: the code or refresh token was used meanwhile');
    throw error;
  };

  return {
    async getClient(clientId: string, clientSecret: string | null): Promise<Client | false> {
      // Every client here is confidential (its secret is the app key): a PKCE request with a
      // client id alone, which the library would let through to the model, is refused here.
      if (!clientSecret) return false;
      try {
        const app = await authenticateOAuthClient(deps, { clientId, clientSecret });
        client = { id: app.clientId, grants: [...SUPPORTED_GRANT_TYPES], app };
        return client;
      } catch (error) {
        if (isDomainError(error) && error.code === 'invalid_credentials') return false;
        throw error;
      }
    },

    async getAuthorizationCode(code: string): Promise<AuthorizationCode | false> {
      const current = authenticated();
      const found = await findAuthorizationCode(deps, { brandId: current.app.brandId, appId: current.app.id, code });
      if (!found) return false;
      authorizationCodeId = found.id;
      return {
        authorizationCode: code,
        expiresAt: onWallClock(found.expiresAt),
        redirectUri: found.redirectUri,
        scope: found.scopes,
        codeChallenge: found.codeChallenge,
        codeChallengeMethod: found.codeChallengeMethod,
        client: current,
        user: { id: found.userId },
      };
    },

    async revokeAuthorizationCode(): Promise<boolean> {
      if (authorizationCodeId === null) return false;
      return consumeAuthorizationCode(deps, { brandId: authenticated().app.brandId, authorizationCodeId });
    },

    async getRefreshToken(refreshToken: string): Promise<RefreshToken | false> {
      const current = authenticated();
      const found = await findRefreshToken(deps, {
        brandId: current.app.brandId,
        appId: current.app.id,
        refreshToken,
      });
      if (!found) return false;
      refreshTokenId = found.refreshToken.id;
      return {
        refreshToken,
        refreshTokenExpiresAt: onWallClock(found.refreshToken.expiresAt),
        scope: found.grant.scopes,
        client: current,
        user: { id: found.grant.userId },
      };
    },

    async revokeToken(): Promise<boolean> {
      if (refreshTokenId === null) return false;
      return spendRefreshToken(deps, { brandId: authenticated().app.brandId, refreshTokenId });
    },

    async saveToken(token: Token, forClient: Client, user: User): Promise<Token> {
      const { app } = authenticated();
      // One request runs one grant type: a code was consumed, or a refresh token was spent.
      if (authorizationCodeId !== null) {
        const issued = await issueGrantTokens(deps, {
          brandId: app.brandId,
          appId: app.id,
          authorizationCodeId,
        }).catch(asInvalidGrant);
        return answer(issued, forClient, user);
      }
      if (refreshTokenId !== null) {
        const issued = await rotateRefreshToken(deps, {
          brandId: app.brandId,
          appId: app.id,
          refreshTokenId,
          ...(token.scope ? { scopes: token.scope } : {}),
        }).catch(asInvalidGrant);
        return answer(issued, forClient, user);
      }
      throw new Error('saveToken was called without a consumed code or a spent refresh token');
    },

    // Codes are issued at the consent step by the core (`issueAuthorizationCode`), never through
    // the library's authorize handler, which this API does not use.
    async saveAuthorizationCode(): Promise<false> {
      return false;
    },

    // Required by the library's typings for the authenticate handler, which this API does not use:
    // access tokens are verified by the API's own gate (`authenticate`), as personal tokens are.
    async getAccessToken(): Promise<false> {
      return false;
    },
  };
}
