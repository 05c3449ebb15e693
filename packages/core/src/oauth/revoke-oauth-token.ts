import { Clock } from '../shared/clock.ports';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from '../identity/identity.ports';
import { GrantTokenRepositories, revokeGrantWithTokens } from './grant-tokens';

/**
 * Revokes a token a client hands back (RFC 7009, `POST /oauth/revoke`): an access token issued
 * for the client's app is revoked (from the very next request, on every process); a refresh token
 * of the client's app revokes its whole grant with every token issued in it. An unknown token, a
 * token of another app or another brand changes nothing. It answers nothing either way: the
 * endpoint says 200 to all of them (RFC 7009 §2.2), so a caller learns nothing about a token it
 * does not own. No `token_type_hint` is needed: both kinds are looked up by the same hash.
 */
export async function revokeOAuthToken(
  deps: {
    uow: UnitOfWork<GrantTokenRepositories>;
    clock: Clock;
    hasher: SecretHasher;
  },
  input: { brandId: number; appId: number; token: string },
): Promise<void> {
  if (input.token === '') return;
  const tokenHash = deps.hasher.hash(input.token);
  await deps.uow.run(async (tx) => {
    const now = deps.clock.now();
    const accessToken = await tx.accessTokens.findByHash(tokenHash);
    if (accessToken) {
      if (accessToken.brandId === input.brandId && accessToken.appId === input.appId && accessToken.revokedAt === null)
        await tx.accessTokens.revoke(accessToken.brandId, accessToken.id, now);
      return;
    }
    const refreshToken = await tx.oauthRefreshTokens.findByHash(input.brandId, tokenHash);
    if (!refreshToken) return;
    const grant = await tx.oauthGrants.findById(input.brandId, refreshToken.grantId);
    if (grant && grant.appId === input.appId) await revokeGrantWithTokens(tx, grant, now);
  });
}
