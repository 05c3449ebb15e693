import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { OAuthClient } from './identity.entities';

/**
 * The brand's app `appId` with its registered redirect URIs (the console's page of one app); null
 * when the brand has no such app, so another brand's app looks exactly like a missing one.
 * @example const client = await findApiApp({ uow }, { brandId: user.brandId, appId: 7 });
 */
export async function findApiApp(
  deps: { uow: UnitOfWork<Pick<Repositories, 'apiApps'>> },
  input: { brandId: number; appId: number },
): Promise<OAuthClient | null> {
  return deps.uow.read(async (r) => {
    const app = await r.apiApps.findById(input.brandId, input.appId);
    if (!app) return null;
    return { app, redirectUris: await r.apiApps.findRedirectUris(app.brandId, app.id) };
  });
}
