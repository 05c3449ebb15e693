import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { OAuthClient } from './identity.entities';

/**
 * The brand's apps, oldest first, each with its registered redirect URIs (the console's list of
 * apps). Never another brand's.
 * @example const apps = await listApiApps({ uow }, { brandId: user.brandId });
 */
export async function listApiApps(
  deps: { uow: UnitOfWork<Pick<Repositories, 'apiApps'>> },
  input: { brandId: number },
): Promise<OAuthClient[]> {
  return deps.uow.read(async (r) => {
    const apps = await r.apiApps.listForBrand(input.brandId);
    const clients: OAuthClient[] = [];
    // One read per app: a brand has a handful of apps, and the page shows them all.
    for (const app of apps) clients.push({ app, redirectUris: await r.apiApps.findRedirectUris(app.brandId, app.id) });
    return clients;
  });
}
