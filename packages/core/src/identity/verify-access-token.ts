import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { Principal } from './identity.entities';
import { SecretHasher, TokenVerifier } from './identity.ports';

function unauthenticated(reason: string): DomainError {
  return new DomainError('unauthenticated', reason);
}

/**
 * Verifies credentials against stored tokens: the token must exist, be neither revoked nor
 * expired, and (on the current interface) come with the key of the app it was issued for.
 */
export function createStoredTokenVerifier(deps: {
  uow: UnitOfWork<Pick<Repositories, 'accessTokens' | 'apiApps'>>;
  clock: Clock;
  hasher: SecretHasher;
}): TokenVerifier {
  return {
    async verify({ accessToken, appKey, requireAppKey }): Promise<Principal> {
      if (accessToken === '') throw unauthenticated('An access token is required');
      return deps.uow.read(async (repositories) => {
        const token = await repositories.accessTokens.findByHash(deps.hasher.hash(accessToken));
        if (!token) throw unauthenticated('The access token is not valid');
        if (token.revokedAt !== null) throw unauthenticated('The access token has been revoked');
        if (token.expiresAt <= deps.clock.now()) throw unauthenticated('The access token has expired');
        const app = await repositories.apiApps.findById(token.appId);
        if (!app) throw unauthenticated('The access token is not valid');
        if (requireAppKey) {
          if (!appKey) throw unauthenticated('The X-Service-App-Key header is required');
          if (deps.hasher.hash(appKey) !== app.appKeyHash)
            throw unauthenticated('The app key does not belong to the app of this access token');
        }
        return {
          brandId: token.brandId,
          userId: token.userId,
          appId: token.appId,
          tokenId: token.id,
          scopes: token.scopes,
          appInternalCode: app.internalCode,
        };
      });
    },
  };
}
