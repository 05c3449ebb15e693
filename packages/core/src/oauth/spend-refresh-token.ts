import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/**
 * Uses up a refresh token (the model's `revokeToken` in the refresh_token grant): true for exactly
 * one caller, however many present it at once; false when it was spent or revoked already, has
 * expired or is not the brand's. Only the caller that got true may go on to `rotateRefreshToken`.
 */
export async function spendRefreshToken(
  deps: { uow: UnitOfWork<Pick<Repositories, 'oauthRefreshTokens'>>; clock: Clock },
  input: { brandId: number; refreshTokenId: number },
): Promise<boolean> {
  return deps.uow.run((tx) => tx.oauthRefreshTokens.markSpent(input.brandId, input.refreshTokenId, deps.clock.now()));
}
