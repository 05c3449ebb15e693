import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from '../identity/identity.ports';
import { GrantTokenRepositories, issueTokensInGrant, outOfOrder } from './grant-tokens';
import { GrantTokenLifetimes, GrantTokens } from './oauth.entities';
import { checkScopes, checkTokenLifetimes } from './oauth-rules';

/** What `rotateRefreshToken` needs: the client (`appId` of brand `brandId`), the refresh token it spent, optionally fewer scopes and lifetimes. */
export interface RotateRefreshTokenInput extends GrantTokenLifetimes {
  brandId: number;
  appId: number;
  /** The refresh token `spendRefreshToken` used up for this refresh. */
  refreshTokenId: number;
  /** Fewer scopes for the new access token; never more than the grant's. Defaults to the grant's. */
  scopes?: string[];
}

/**
 * Issues the successor of a spent refresh token (the model's `saveToken` in the refresh_token
 * grant): a new access token and a new refresh token in the same grant, with the grant's scopes or
 * fewer (RFC 6749 §6: a refresh may narrow them, never widen them beyond what the user consented
 * to). The plain tokens are returned once.
 *
 * Refused with `invalid_state_transition` when the refresh token was not spent, already has its
 * successor, or its grant was revoked meanwhile (a replay detected between spending and rotating).
 */
export async function rotateRefreshToken(
  deps: {
    uow: UnitOfWork<GrantTokenRepositories>;
    clock: Clock;
    hasher: SecretHasher;
  },
  input: RotateRefreshTokenInput,
): Promise<GrantTokens> {
  const lifetimeViolations = new ViolationList();
  const lifetimes = checkTokenLifetimes(lifetimeViolations, input);
  lifetimeViolations.throwIfAny();

  return deps.uow.run(async (tx) => {
    const spent = await tx.oauthRefreshTokens.findById(input.brandId, input.refreshTokenId);
    const found = spent && (await tx.oauthGrants.findById(input.brandId, spent.grantId));
    if (!spent || !found || found.appId !== input.appId)
      throw DomainError.notFound('refresh token', input.refreshTokenId);
    const data = { refreshTokenId: spent.id, grantId: found.id };
    if (spent.spentAt === null)
      throw outOfOrder(`refresh token ${spent.id} has not been spent; spend it before rotating it`, data);
    if (spent.replacedById !== null) throw outOfOrder(`refresh token ${spent.id} has been rotated already`, data);

    const violations = new ViolationList();
    const scopes = input.scopes
      ? checkScopes(violations, input.scopes, {
          scopes: found.scopes,
          refusal: 'was not granted; a refresh may narrow the scopes, never widen them',
        })
      : found.scopes;
    violations.throwIfAny();

    // Held until commit: a revocation of the grant either came first (then it is refused here) or
    // waits for this transaction and then revokes the tokens issued here too.
    const grant = await tx.oauthGrants.holdLive(input.brandId, found.id);
    if (!grant) throw outOfOrder(`the grant of refresh token ${spent.id} has been revoked`, data);
    const issued = await issueTokensInGrant(tx, deps, grant, scopes, lifetimes);
    // Conditional: of two rotations of one spent token racing past the check above, one commits.
    if (!(await tx.oauthRefreshTokens.markReplaced(input.brandId, spent.id, issued.refreshTokenId)))
      throw outOfOrder(`refresh token ${spent.id} has been rotated already`, data);
    return issued;
  });
}
