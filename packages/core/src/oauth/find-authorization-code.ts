import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from '../identity/identity.ports';
import { GrantTokenRepositories, revokeGrantWithTokens } from './grant-tokens';
import { OAuthAuthorizationCode } from './oauth.entities';

/**
 * The authorization code a client presents (the model's `getAuthorizationCode`), when it is
 * unused, unexpired and was issued to that client (`appId`, of brand `brandId`); null otherwise,
 * whatever the reason, so nothing tells a guessed code from a real one.
 *
 * A code that was used already is a replay (RFC 6749 §4.1.2): the grant its first use created is
 * revoked with every token issued in it, and no tokens are issued from the code afterwards.
 */
export async function findAuthorizationCode(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'oauthAuthorizationCodes'> & GrantTokenRepositories>;
    clock: Clock;
    hasher: SecretHasher;
  },
  input: { brandId: number; appId: number; code: string },
): Promise<OAuthAuthorizationCode | null> {
  const codeHash = deps.hasher.hash(input.code);
  return deps.uow.run(async (tx) => {
    const found = await tx.oauthAuthorizationCodes.findByHash(input.brandId, codeHash);
    // Another app's code is treated as missing, and its grant left alone: only the client the
    // code was issued to can replay it.
    if (!found || found.appId !== input.appId) return null;
    const now = deps.clock.now();
    if (found.usedAt !== null) {
      const grantId = await tx.oauthAuthorizationCodes.markReused(input.brandId, found.id, now);
      if (grantId !== null) await revokeGrantWithTokens(tx, { brandId: input.brandId, id: grantId }, now);
      return null;
    }
    return found.expiresAt > now ? found : null;
  });
}
