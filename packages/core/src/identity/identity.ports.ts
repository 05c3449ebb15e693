import { AccessToken, ApiApp, Brand, Principal, RequestLogEntry, User } from './identity.entities';

/** Brands. Lookups by id only: brands are never listed to integrations. */
export interface BrandRepository {
  insert(brand: Brand): Promise<void>;
  findById(id: number): Promise<Brand | null>;
  /** The oldest brand, if any (first start decides whether to seed the demo). */
  findFirst(): Promise<Brand | null>;
}

/** Users of a brand, on whose behalf tokens are issued. */
export interface UserRepository {
  insert(user: User): Promise<void>;
  findById(id: number): Promise<User | null>;
}

/** Registered integrations (API apps); their keys are stored hashed. */
export interface ApiAppRepository {
  insert(app: ApiApp): Promise<void>;
  findById(id: number): Promise<ApiApp | null>;
}

/**
 * Access tokens. `findByHash` is the hot path of every request: adapters index `token_hash`.
 * @example const token = await tx.accessTokens.findByHash(hasher.hash(bearer));
 */
export interface AccessTokenRepository {
  insert(token: AccessToken): Promise<void>;
  findByHash(tokenHash: string): Promise<AccessToken | null>;
  findById(id: number): Promise<AccessToken | null>;
  /**
   * Marks the token revoked at `at` and advances the credentials revision in the same
   * transaction; returns false (and changes nothing) when it was already revoked.
   */
  revoke(id: number, at: string): Promise<boolean>;
  /**
   * A number that advances with every change making a stored credential invalid (a revocation;
   * any future key rotation or deletion must advance it too). Whoever caches verified tokens
   * keeps them only while it is unchanged.
   */
  credentialsRevision(): Promise<number>;
}

/** The per-user log of API requests. */
export interface RequestLogRepository {
  /** Appends a batch of entries (the API buffers them briefly to keep requests fast). */
  append(entries: RequestLogEntry[]): Promise<void>;
  /** Most recent entries of a user, newest first. */
  listForUser(brandId: number, userId: number, limit: number): Promise<RequestLogEntry[]>;
}

/**
 * Hashes secrets (access tokens, app keys) one way, and makes new random ones. The adapter uses
 * SHA-256: tokens are long random strings, so a slow password hash would add nothing.
 */
export interface SecretHasher {
  hash(secret: string): string;
  /** A new URL-safe random secret with at least 256 bits of entropy. */
  randomSecret(): string;
  /** A new signing key: the standard base64 (with padding) of 32 random bytes (webhook secrets). */
  randomKey(): string;
}

/**
 * Turns the credentials of a request into a principal, or throws `unauthenticated`.
 * The default implementation reads tokens from storage (`createStoredTokenVerifier`); an
 * embedding service may plug in its own.
 */
export interface TokenVerifier {
  verify(credentials: { accessToken: string; appKey: string | null; requireAppKey: boolean }): Promise<Principal>;
}

/** The identity module's repositories; the declaration below adds them to `Repositories`. */
export interface IdentityRepositories {
  brands: BrandRepository;
  users: UserRepository;
  apiApps: ApiAppRepository;
  accessTokens: AccessTokenRepository;
  requestLogs: RequestLogRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends IdentityRepositories {}
}

declare module '../shared/sequences.ports' {
  /** The identity module's tables that draw ids from `IdGenerator`. */
  interface EntityKinds {
    brands: true;
    users: true;
    api_apps: true;
    access_tokens: true;
    request_logs: true;
  }
}
