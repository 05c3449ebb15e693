import { BrandOAuthError } from './brand-oauth-error';

/** The tokens a refresh answered; persist `refreshToken` before the next refresh, the old one is spent. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lives, as the token endpoint said. */
  expiresIn: number | null;
  scope: string | null;
}

/** OAuth 2.0 credentials of an integration (an API app is an OAuth client; its app key is the client secret). */
export interface OAuthOptions {
  /** `POST` target of the refresh; by default `<baseUrl>/oauth/token`. */
  tokenUrl?: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /**
   * Called with every new pair of tokens, and awaited before the call that needed them goes on.
   * The API rotates refresh tokens: the one given here is spent by the refresh, and using a spent
   * one again revokes the grant, so store the new one here.
   */
  onTokens?: (tokens: OAuthTokens) => void | Promise<void>;
}

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  scope?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/**
 * The access token of a client and its refresh. Refreshes are shared: calls that find the token
 * rejected at the same time wait for one refresh (a second would send a refresh token the first
 * already spent, and the API would revoke the grant). A call whose token was already replaced by
 * a refresh since it was sent simply uses the new one.
 */
export class OAuthSession {
  private accessToken: string | null;
  private refreshToken: string;
  private refreshing: Promise<string> | null = null;

  constructor(
    private readonly options: OAuthOptions & { tokenUrl: string },
    accessToken: string | null,
    private readonly fetchImpl: typeof fetch,
  ) {
    this.accessToken = accessToken;
    this.refreshToken = options.refreshToken;
  }

  /** The token to send; refreshes first when the client was made without one. */
  async currentToken(): Promise<string> {
    return this.accessToken ?? this.refreshShared();
  }

  /** The token to replay with after `rejected` was refused: a fresh one, refreshed at most once for all callers. */
  async tokenAfterRejection(rejected: string): Promise<string> {
    if (this.refreshing) return this.refreshing;
    if (this.accessToken !== null && this.accessToken !== rejected) return this.accessToken;
    return this.refreshShared();
  }

  private refreshShared(): Promise<string> {
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<string> {
    const response = await this.fetchImpl(this.options.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: this.refreshToken,
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
      }).toString(),
    });
    const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
    if (!response.ok || typeof answer.access_token !== 'string' || typeof answer.refresh_token !== 'string') {
      throw new BrandOAuthError(
        response.status,
        typeof answer.error === 'string' ? answer.error : 'invalid_response',
        typeof answer.error_description === 'string' ? answer.error_description : null,
      );
    }
    const tokens: OAuthTokens = {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresIn: typeof answer.expires_in === 'number' ? answer.expires_in : null,
      scope: typeof answer.scope === 'string' ? answer.scope : null,
    };
    this.accessToken = tokens.accessToken;
    this.refreshToken = tokens.refreshToken;
    await this.options.onTokens?.(tokens);
    return tokens.accessToken;
  }
}
