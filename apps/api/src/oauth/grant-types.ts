import {
  AbstractGrantType,
  Client,
  InvalidGrantError,
  Request as OAuthRequest,
  RefreshToken,
  Token,
} from '@node-oauth/oauth2-server';

/** The library's grant-type classes are not exported by its entry point; their files are its published CommonJS. */
interface AuthorizationCodeGrant {
  validateRedirectUri(request: OAuthRequest, code: { redirectUri?: string }): void;
}
interface RefreshTokenGrant {
  getRefreshToken(request: OAuthRequest, client: Client): Promise<RefreshToken>;
  revokeToken(token: RefreshToken): Promise<RefreshToken>;
  getScope(request: OAuthRequest, token: RefreshToken): string[] | undefined;
  saveToken(user: RefreshToken['user'], client: Client, scope: string[] | undefined): Promise<Token>;
}
interface Handles {
  handle(request: OAuthRequest, client: Client): Promise<Token>;
}
type GrantTypeClass<T> = new (options: Record<string, unknown>) => T & Handles;

const LibraryAuthorizationCodeGrant =
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file outside the package's entry point, which has no types for it
  require('@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type') as GrantTypeClass<AuthorizationCodeGrant>;
const LibraryRefreshTokenGrant =
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file outside the package's entry point, which has no types for it
  require('@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type') as GrantTypeClass<RefreshTokenGrant>;

/**
 * The library's authorization_code grant, answering a `redirect_uri` other than the code's with
 * `invalid_grant`, as RFC 6749 §5.2 names that case (the library says `invalid_request`).
 */
class AuthorizationCodeGrantType extends LibraryAuthorizationCodeGrant {
  override validateRedirectUri(request: OAuthRequest, code: { redirectUri?: string }): void {
    const sent: unknown = (request.body as Record<string, unknown>)['redirect_uri'];
    if (code.redirectUri && sent !== code.redirectUri)
      throw new InvalidGrantError('Invalid grant: `redirect_uri` differs from the one the code was issued for');
    super.validateRedirectUri(request, code);
  }
}

/**
 * The library's refresh_token grant, checking the requested scope before it uses up the refresh
 * token: the library checks it after, so a refused widening would spend the token, and presenting
 * it again (the client's natural retry) would count as a reuse and end the whole grant.
 */
class RefreshTokenGrantType extends LibraryRefreshTokenGrant {
  override async handle(request: OAuthRequest, client: Client): Promise<Token> {
    const token = await this.getRefreshToken(request, client);
    const scope = this.getScope(request, token);
    await this.revokeToken(token);
    return this.saveToken(token.user, client, scope);
  }
}

/** The grant types the token endpoint runs, replacing the library's own of the same names. */
export const GRANT_TYPES = {
  authorization_code: AuthorizationCodeGrantType,
  refresh_token: RefreshTokenGrantType,
} as unknown as Record<string, typeof AbstractGrantType>;
