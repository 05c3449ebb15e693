/**
 * The token endpoint refused a refresh (RFC 6749 §5.2: `invalid_grant` when the refresh token is
 * spent, expired or revoked, `invalid_client` for a wrong client secret). The client cannot
 * recover from it: the integration must be authorised again.
 */
export class BrandOAuthError extends Error {
  override readonly name = 'BrandOAuthError';

  constructor(
    readonly status: number,
    /** The RFC 6749 error code, e.g. `invalid_grant`. */
    readonly error: string,
    readonly errorDescription: string | null,
  ) {
    super(`The token endpoint answered ${status} ${error}${errorDescription ? `: ${errorDescription}` : ''}`);
  }
}
