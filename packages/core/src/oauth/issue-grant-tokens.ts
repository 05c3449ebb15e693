import { Clock } from '../shared/clock.ports';
import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { SecretHasher } from '../identity/identity.ports';
import { GrantTokenRepositories, issueTokensInGrant, outOfOrder } from './grant-tokens';
import { GrantTokenLifetimes, GrantTokens, OAuthGrant } from './oauth.entities';
import { checkTokenLifetimes } from './oauth-rules';

/** What `issueGrantTokens` needs: the client (`appId` of brand `brandId`), the code it consumed, and optional lifetimes. */
export interface IssueGrantTokensInput extends GrantTokenLifetimes {
  brandId: number;
  appId: number;
  authorizationCodeId: number;
}

/**
 * Exchanges a consumed authorization code for the first tokens of a new grant (the model's
 * `saveToken` in the authorization_code grant): the grant (the code's user, app and scopes) is
 * created, the code linked to it, and an access token (1 hour by default) and a refresh token
 * (30 days by default) issued in it, all in one transaction. The plain tokens are returned once.
 *
 * Refused with `invalid_state_transition` when the code was not consumed, already has its grant,
 * or was presented again since it was consumed (its tokens would belong to a replayed code).
 */
export async function issueGrantTokens(
  deps: {
    uow: UnitOfWork<Pick<Repositories, 'oauthAuthorizationCodes'> & GrantTokenRepositories>;
    clock: Clock;
    hasher: SecretHasher;
  },
  input: IssueGrantTokensInput,
): Promise<GrantTokens> {
  const violations = new ViolationList();
  const lifetimes = checkTokenLifetimes(violations, input);
  violations.throwIfAny();

  return deps.uow.run(async (tx) => {
    const code = await tx.oauthAuthorizationCodes.findById(input.brandId, input.authorizationCodeId);
    if (!code || code.appId !== input.appId)
      throw DomainError.notFound('authorization code', input.authorizationCodeId);
    const data = { authorizationCodeId: code.id };
    if (code.usedAt === null)
      throw outOfOrder(`authorization code ${code.id} has not been consumed; consume it before issuing tokens`, data);
    if (code.grantId !== null) throw outOfOrder(`authorization code ${code.id} has been exchanged already`, data);
    if (code.reusedAt !== null)
      throw outOfOrder(`authorization code ${code.id} was presented again after it was consumed`, data);

    const [id] = await tx.ids.next('oauth_grants');
    const grant: OAuthGrant = {
      id: id!,
      brandId: code.brandId,
      appId: code.appId,
      userId: code.userId,
      scopes: code.scopes,
      createdAt: deps.clock.now(),
      revokedAt: null,
    };
    await tx.oauthGrants.insert(grant);
    // Conditional: a replay recorded (or a grant linked) since the read above makes this fail,
    // and the whole transaction, grant included, rolls back.
    if (!(await tx.oauthAuthorizationCodes.linkGrant(code.brandId, code.id, grant.id)))
      throw outOfOrder(`authorization code ${code.id} was exchanged or presented again meanwhile`, data);
    return issueTokensInGrant(tx, deps, grant, grant.scopes, lifetimes);
  });
}
