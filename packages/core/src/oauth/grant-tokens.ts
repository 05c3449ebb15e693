import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories } from '../shared/unit-of-work.ports';
import { AccessToken } from '../identity/identity.entities';
import { SecretHasher } from '../identity/identity.ports';
import { Scope } from '../identity/scopes';
import { GrantTokens, OAuthGrant } from './oauth.entities';

/** The repositories issuing and revoking a grant's tokens reach. */
export type GrantTokenRepositories = Pick<Repositories, 'accessTokens' | 'ids' | 'oauthGrants' | 'oauthRefreshTokens'>;

const addSeconds = (at: string, seconds: number): string => new Date(Date.parse(at) + seconds * 1000).toISOString();

/**
 * Issues an access token and a refresh token in `grant`, in the caller's transaction. The access
 * token is the identity module's kind (random, stored hashed, scoped, for the grant's user and
 * app), so the API verifies it like any other; the link to the grant is kept here.
 */
export async function issueTokensInGrant(
  tx: GrantTokenRepositories,
  deps: { clock: Clock; hasher: SecretHasher },
  grant: OAuthGrant,
  scopes: Scope[],
  lifetimes: { accessTokenSeconds: number; refreshTokenSeconds: number },
): Promise<GrantTokens> {
  const now = deps.clock.now();
  const accessToken = deps.hasher.randomSecret();
  const refreshToken = deps.hasher.randomSecret();
  const [accessTokenId] = await tx.ids.next('access_tokens');
  const [refreshTokenId] = await tx.ids.next('oauth_refresh_tokens');
  const issued: AccessToken = {
    id: accessTokenId!,
    brandId: grant.brandId,
    userId: grant.userId,
    appId: grant.appId,
    tokenHash: deps.hasher.hash(accessToken),
    scopes,
    expiresAt: addSeconds(now, lifetimes.accessTokenSeconds),
    revokedAt: null,
    createdAt: now,
  };
  await tx.accessTokens.insert(issued);
  await tx.oauthGrants.linkAccessToken({
    brandId: grant.brandId,
    grantId: grant.id,
    accessTokenId: issued.id,
    expiresAt: issued.expiresAt,
  });
  const refreshTokenExpiresAt = addSeconds(now, lifetimes.refreshTokenSeconds);
  await tx.oauthRefreshTokens.insert({
    id: refreshTokenId!,
    brandId: grant.brandId,
    grantId: grant.id,
    tokenHash: deps.hasher.hash(refreshToken),
    expiresAt: refreshTokenExpiresAt,
    spentAt: null,
    revokedAt: null,
    replacedById: null,
    createdAt: now,
  });
  return {
    grant,
    accessToken,
    accessTokenId: issued.id,
    expiresAt: issued.expiresAt,
    refreshToken,
    refreshTokenId: refreshTokenId!,
    refreshTokenExpiresAt,
    scopes,
  };
}

/**
 * Revokes a grant with every token issued in it, in the caller's transaction: its access tokens
 * through the identity module (which advances the credentials revision, so every process refuses
 * them on the very next request) and its refresh tokens. A grant revoked already is left as it
 * is: its tokens went with it, and no token is issued in a revoked grant (`holdLive`).
 */
export async function revokeGrantWithTokens(
  tx: GrantTokenRepositories,
  grant: Pick<OAuthGrant, 'brandId' | 'id'>,
  at: string,
): Promise<void> {
  if (!(await tx.oauthGrants.revoke(grant.brandId, grant.id, at))) return;
  // Expired access tokens are refused anyway; revoking them too would only rewrite old rows.
  for (const accessTokenId of await tx.oauthGrants.accessTokenIdsLiveAt(grant.brandId, grant.id, at))
    await tx.accessTokens.revoke(grant.brandId, accessTokenId, at);
  await tx.oauthRefreshTokens.revokeForGrant(grant.brandId, grant.id, at);
}

/** The refusal of a step taken out of its order (tokens from an unconsumed code, a second successor of a refresh token). */
export function outOfOrder(detail: string, data: Record<string, unknown>): DomainError {
  return new DomainError('invalid_state_transition', detail, { data });
}
