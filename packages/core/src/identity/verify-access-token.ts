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

interface CachedCredentials extends StoredCredentials {
  /** The app key last presented with this token and found to be its app's: the next one equal to it needs no hashing. */
  verifiedAppKey: string | null;
}

/**
 * Whether two secrets are equal, in a time that depends on their length only (the length of an
 * app key is no secret), so that how long a comparison takes tells nothing of how much matched.
 */
function sameSecret(presented: string, known: string): boolean {
  if (presented.length !== known.length) return false;
  let difference = 0;
  for (let at = 0; at < presented.length; at += 1) difference |= presented.charCodeAt(at) ^ known.charCodeAt(at);
  return difference === 0;
}

/**
 * Tokens and their apps as read from storage, good while the credentials revision they were read
 * under is the current one. A changed revision empties the whole cache: revocations are rare,
 * and telling which entry a change concerns would cost more than reading the tokens again.
 *
 * Entries are found by the token as presented, so a request whose token is cached hashes
 * nothing (the hash is what storage is searched by, and a hit does not search). The tokens
 * themselves are then in this process's memory for as long as they are cached, as they are in
 * every request that carries them; storage still holds hashes only.
 */
class CredentialsCache {
  private revision = Number.NaN;
  private readonly entries = new Map<string, CachedCredentials>();

  constructor(private readonly capacity: number) {}

  /** Forgets everything read under an older revision, then looks the token up. */
  lookup(accessToken: string, currentRevision: number): CachedCredentials | undefined {
    if (currentRevision !== this.revision) {
      this.entries.clear();
      this.revision = currentRevision;
      return undefined;
    }
    return this.entries.get(accessToken);
  }

  /** Keeps what was read after `revision` was read (a change committed in between advances it, so the entry is dropped next time). */
  keep(accessToken: string, revision: number, credentials: CachedCredentials): void {
    if (revision !== this.revision || this.capacity === 0) return;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(accessToken, credentials);
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
  const readCredentials = (accessToken: string): Promise<CachedCredentials | null> =>
    deps.uow.read(async (repositories) => {
      const revision = await repositories.accessTokens.credentialsRevision();
      const cached = cache.lookup(accessToken, revision);
      if (cached) return cached;
      const token = await repositories.accessTokens.findByHash(deps.hasher.hash(accessToken));
      if (!token) return null;
      const app = await repositories.apiApps.findById(token.brandId, token.appId);
      if (!app) return null;
      const read: CachedCredentials = { token, app, verifiedAppKey: null };
      cache.keep(accessToken, revision, read);
      return read;
    });

  return {
    async verify({ accessToken, appKey, requireAppKey }): Promise<Principal> {
      if (accessToken === '') throw unauthenticated('An access token is required');
      const credentials = await readCredentials(accessToken);
      if (!credentials) throw unauthenticated('The access token is not valid');
      const { token, app } = credentials;
      if (token.revokedAt !== null) throw unauthenticated('The access token has been revoked');
      if (token.expiresAt <= deps.clock.now()) throw unauthenticated('The access token has expired');
      if (requireAppKey) {
        if (!appKey) throw unauthenticated('The X-Service-App-Key header is required');
        const known = credentials.verifiedAppKey;
        if (known === null || !sameSecret(appKey, known)) {
          if (deps.hasher.hash(appKey) !== app.appKeyHash)
            throw unauthenticated('The app key does not belong to the app of this access token');
          credentials.verifiedAppKey = appKey;
        }
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
