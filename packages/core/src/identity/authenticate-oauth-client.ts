import { constantTimeEqual } from '../shared/constant-time';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { ApiApp } from './identity.entities';
import { SecretHasher } from './identity.ports';

/**
 * Authenticates an OAuth client (the token and revocation endpoints): `clientSecret` must be the
 * app key of the app whose client id is `clientId`, compared by hash in constant time. An unknown
 * client and a wrong secret are the same `invalid_credentials` failure. No throttling: an app key
 * is 256 random bits, nothing to guess.
 * @example const app = await authenticateOAuthClient({ uow, hasher }, { clientId, clientSecret });
 */
export async function authenticateOAuthClient(
  deps: { uow: UnitOfWork<Pick<Repositories, 'apiApps'>>; hasher: SecretHasher },
  input: { clientId: string; clientSecret: string },
): Promise<ApiApp> {
  const app = await deps.uow.read((repositories) => repositories.apiApps.findByClientId(input.clientId));
  if (!app || !constantTimeEqual(deps.hasher.hash(input.clientSecret), app.appKeyHash))
    throw new DomainError('invalid_credentials', 'Client authentication failed');
  return app;
}
