import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AccessToken, ApiApp } from '../identity/identity.entities';

/**
 * What the console's token page shows a logged-in user: their own tokens (newest first, revoked and
 * expired ones included) and the apps of their brand, which name each token's app and are the
 * choice when issuing one. Never another user's or brand's token.
 * @example const { tokens, apps } = await listConsoleAccessTokens({ uow }, { brandId: user.brandId, userId: user.id });
 */
export async function listConsoleAccessTokens(
  deps: { uow: UnitOfWork<Pick<Repositories, 'accessTokens' | 'apiApps'>> },
  input: { brandId: number; userId: number },
): Promise<{ tokens: AccessToken[]; apps: ApiApp[] }> {
  return deps.uow.read(async (r) => ({
    tokens: await r.accessTokens.listForUser(input.brandId, input.userId),
    apps: await r.apiApps.listForBrand(input.brandId),
  }));
}
