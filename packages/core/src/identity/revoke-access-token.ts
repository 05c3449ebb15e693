import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from './identity.ports';

/**
 * Revokes a token, given its id or the plain token; given `ownedBy`, a token of another brand or
 * user is treated as missing (the console revokes only the logged-in user's tokens). Verification reads storage on every request,
 * so the revocation holds from the very next request, on every process.
 */
export async function revokeAccessToken(
  deps: { uow: UnitOfWork<Pick<Repositories, 'accessTokens'>>; clock: Clock; hasher: SecretHasher },
  input: { tokenId?: number; accessToken?: string; ownedBy?: { brandId: number; userId: number } },
): Promise<{ tokenId: number; revokedAt: string; alreadyRevoked: boolean }> {
  return deps.uow.run(async (tx) => {
    const token =
      input.tokenId !== undefined
        ? input.ownedBy
          ? await tx.accessTokens.findById(input.ownedBy.brandId, input.tokenId)
          : await tx.accessTokens.findByIdAnyBrand(input.tokenId)
        : input.accessToken !== undefined
          ? await tx.accessTokens.findByHash(deps.hasher.hash(input.accessToken))
          : null;
    const foreign =
      token !== null &&
      input.ownedBy !== undefined &&
      (token.brandId !== input.ownedBy.brandId || token.userId !== input.ownedBy.userId);
    if (!token || foreign) throw DomainError.notFound('access token', input.tokenId ?? '(given)');
    if (token.revokedAt) return { tokenId: token.id, revokedAt: token.revokedAt, alreadyRevoked: true };
    const now = deps.clock.now();
    await tx.accessTokens.revoke(token.brandId, token.id, now);
    return { tokenId: token.id, revokedAt: now, alreadyRevoked: false };
  });
}
