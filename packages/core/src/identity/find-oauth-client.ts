import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { OAuthClient } from './identity.entities';

/**
 * The app whose public client id is `clientId`, with its registered redirect URIs; null when no
 * app has it. Client ids are unique across brands, so the brand comes from the app.
 * @example const client = await findOAuthClient({ uow }, { clientId: query.client_id });
 */
export async function findOAuthClient(
  deps: { uow: UnitOfWork<Pick<Repositories, 'apiApps'>> },
  input: { clientId: string },
): Promise<OAuthClient | null> {
  return deps.uow.read(async (repositories) => {
    const app = await repositories.apiApps.findByClientId(input.clientId);
    if (!app) return null;
    return { app, redirectUris: await repositories.apiApps.findRedirectUris(app.brandId, app.id) };
  });
}
