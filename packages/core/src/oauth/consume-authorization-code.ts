import { Clock } from '../shared/clock.ports';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/**
 * Uses up an authorization code (the model's `revokeAuthorizationCode`): true for exactly one
 * caller, however many present the code at once; false when it was used already, has expired or
 * is not the brand's. Only the caller that got true may go on to `issueGrantTokens`.
 */
export async function consumeAuthorizationCode(
  deps: { uow: UnitOfWork<Pick<Repositories, 'oauthAuthorizationCodes'>>; clock: Clock },
  input: { brandId: number; authorizationCodeId: number },
): Promise<boolean> {
  return deps.uow.run((tx) =>
    tx.oauthAuthorizationCodes.markUsed(input.brandId, input.authorizationCodeId, deps.clock.now()),
  );
}
