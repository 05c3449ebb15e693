import { Clock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';
import { AccessToken, ApiApp, Principal } from './identity.entities';
import { SecretHasher, TokenVerifier } from './identity.ports';

function unauthenticated(reason: string): DomainError {
  return new DomainError('unauthenticated', reason);
}

/** How many verified tokens one verifier keeps by default; beyond it the oldest entries go. */
const DEFAULT_CACHED_TOKENS = 10_000;

interface StoredCredentials {
  token: AccessToken;
  app: ApiApp;
}

/**
 * Tokens and their apps as read from storage, good while the credentials revision they were read
 * under is the current one. A changed revision empties the whole cache: revocations are rare,
 * and telling which entry a change concerns would cost more than reading the tokens again.
 */
class CredentialsCache {
  private revision = Number.NaN;
  private readonly entries = new Map<string, StoredCredentials>();

  constructor(private readonly capacity: number) {}

  /** Forgets everything read under an older revision, then looks the token up. */
  lookup(tokenHash: string, currentRevision: number): StoredCredentials | undefined {
    if (currentRevision !== this.revision) {
      this.entries.clear();
      this.revision = currentRevision;
      return undefined;
    }
    return this.entries.get(tokenHash);
  }

  /** Keeps what was read after `revision` was read (a change committed in between advances it, so the entry is dropped next time). */
  keep(tokenHash: string, revision: number, credentials: StoredCredentials): void {
    if (revision !== this.revision) return;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, credentials);
  }
}

/**
 * Verifies credentials against stored tokens: the token must exist, be neither revoked nor
 * expired, and (on the current interface) come with the key of the app it was issued for.
 *
 * Verified tokens and their apps are kept in memory, and each verification reads only the
 * credentials revision (one row) to know whether they are still good: a revocation committed by
 * any process advances it, so it takes effect on the very next request on every process. Expiry
 * is checked against the clock every time; unknown tokens are never cached.
 */
export function createStoredTokenVerifier(deps: {
  uow: UnitOfWork<Pick<Repositories, 'accessTokens' | 'apiApps'>>;
  clock: Clock;
  hasher: SecretHasher;
  /** Verified tokens kept in memory (default 10,000); 0 reads the token and its app on every request. */
  cachedTokens?: number;
}): TokenVerifier {
  const cache = new CredentialsCache(deps.cachedTokens ?? DEFAULT_CACHED_TOKENS);
  const readCredentials = (tokenHash: string): Promise<StoredCredentials | null> =>
    deps.uow.read(async (repositories) => {
      const revision = await repositories.accessTokens.credentialsRevision();
      const cached = cache.lookup(tokenHash, revision);
      if (cached) return cached;
      const token = await repositories.accessTokens.findByHash(tokenHash);
      if (!token) return null;
      const app = await repositories.apiApps.findById(token.brandId, token.appId);
      if (!app) return null;
      cache.keep(tokenHash, revision, { token, app });
      return { token, app };
    });

  return {
    async verify({ accessToken, appKey, requireAppKey }): Promise<Principal> {
      if (accessToken === '') throw unauthenticated('An access token is required');
      const credentials = await readCredentials(deps.hasher.hash(accessToken));
      if (!credentials) throw unauthenticated('The access token is not valid');
      const { token, app } = credentials;
      if (token.revokedAt !== null) throw unauthenticated('The access token has been revoked');
      if (token.expiresAt <= deps.clock.now()) throw unauthenticated('The access token has expired');
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
    },
  };
}
