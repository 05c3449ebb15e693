import { Clock } from '../shared/clock.ports';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from '../identity/identity.ports';
import { GrantTokenRepositories, revokeGrantWithTokens } from './grant-tokens';
import { OAuthGrant, OAuthRefreshToken } from './oauth.entities';

/**
 * The refresh token a client presents (the model's `getRefreshToken`) with its grant, when it is
 * live: not spent, not revoked, not expired, its grant not revoked, and issued to that client
 * (`appId`, of brand `brandId`); null otherwise, whatever the reason.
 *
 * A spent refresh token presented again means two parties hold the grant's tokens (rotation with
 * reuse detection, RFC 9700 §4.14.2): the whole grant is revoked, every access token and refresh
 * token issued in it, so the thief and the client both have to ask the user again.
 */
export async function findRefreshToken(
  deps: {
    uow: UnitOfWork<GrantTokenRepositories>;
    clock: Clock;
    hasher: SecretHasher;
  },
  input: { brandId: number; appId: number; refreshToken: string },
): Promise<{ refreshToken: OAuthRefreshToken; grant: OAuthGrant } | null> {
  const tokenHash = deps.hasher.hash(input.refreshToken);
  return deps.uow.run(async (tx) => {
    const refreshToken = await tx.oauthRefreshTokens.findByHash(input.brandId, tokenHash);
    if (!refreshToken) return null;
    const grant = await tx.oauthGrants.findById(input.brandId, refreshToken.grantId);
    // Another app's token is treated as missing, and its grant left alone.
    if (!grant || grant.appId !== input.appId) return null;
    const now = deps.clock.now();
    if (refreshToken.spentAt !== null) {
      await revokeGrantWithTokens(tx, grant, now);
      return null;
    }
    if (refreshToken.revokedAt !== null || grant.revokedAt !== null || refreshToken.expiresAt <= now) return null;
    return { refreshToken, grant };
  });
}
