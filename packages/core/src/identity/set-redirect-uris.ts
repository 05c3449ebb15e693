import { DomainError, ViolationList } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { OAuthClient } from './identity.entities';
import { checkRedirectUris } from './redirect-uris';

/** What `setRedirectUris` needs: the brand, its app and the complete new list of redirect URIs. */
export interface SetRedirectUrisInput {
  brandId: number;
  appId: number;
  /** Replaces every URI registered before; an empty list unregisters them all. */
  redirectUris: string[];
}

/**
 * Replaces the redirect URIs registered for an app (the console's form): at most 10, each an
 * https URL or http on a loopback host, no fragment (see `redirectUriProblem`). Another brand's
 * app is not found.
 * @example const client = await setRedirectUris({ uow }, { brandId, appId, redirectUris: ['https://erp.example.com/oauth/callback'] });
 */
export async function setRedirectUris(
  deps: { uow: UnitOfWork<Pick<Repositories, 'apiApps'>> },
  input: SetRedirectUrisInput,
): Promise<OAuthClient> {
  const violations = new ViolationList();
  const redirectUris = checkRedirectUris(input.redirectUris, violations);
  violations.throwIfAny();
  return deps.uow.run(async (tx) => {
    const app = await tx.apiApps.findById(input.brandId, input.appId);
    if (!app) throw DomainError.notFound('api app', input.appId);
    await tx.apiApps.replaceRedirectUris(app.brandId, app.id, redirectUris);
    return { app, redirectUris };
  });
}
