import {
  AccessToken,
  ApiApp,
  Brand,
  Principal,
  RecordedRequest,
  RequestLogEntry,
  RequestLogPosition,
  User,
  UserCredentials,
} from './identity.entities';

/** Brands. Lookups by id only: brands are never listed to integrations. */
export interface BrandRepository {
  insert(brand: Brand): Promise<void>;
  findById(id: number): Promise<Brand | null>;
  /** The oldest brand, if any (first start decides whether to seed the demo). */
  findFirst(): Promise<Brand | null>;
}

/**
 * Users of a brand, on whose behalf tokens are issued. A user with a password also has a login
 * e-mail (the address in lower case, see `loginEmailOf`), unique across every brand, since logging
 * in names no brand.
 * @example const credentials = await tx.users.findByLoginEmail(loginEmailOf(' Anna@North.example'));
 */
export interface UserRepository {
  insert(user: User): Promise<void>;
  findById(brandId: number, id: number): Promise<User | null>;
  /**
   * The user with the id, of whichever brand: only for an operator who names a user by its id
   * alone (the CLI's `create-token --user`, `set-password --user`). One of the reviewed
   * cross-brand statements (docs/decisions/cross-brand-statements.md).
   */
  findByIdAnyBrand(id: number): Promise<User | null>;
  /** The user of any brand who logs in with `loginEmail` (already normalised), with their password hash. */
  findByLoginEmail(loginEmail: string): Promise<UserCredentials | null>;
  /**
   * Stores the user's password hash and login e-mail, replacing earlier ones; false (and nothing
   * changed) when the brand has no such user. A login e-mail another user has is a unique-key
   * violation: callers check `findByLoginEmail` first.
   */
  setPassword(brandId: number, userId: number, login: { passwordHash: string; loginEmail: string }): Promise<boolean>;
}

/**
 * Registered integrations (API apps); their keys are stored hashed. Apps are OAuth clients too:
 * found by their public client id, with the redirect URIs registered for them.
 * @example const app = await tx.apiApps.findByClientId('app_2f9Kx…');
 */
export interface ApiAppRepository {
  insert(app: ApiApp): Promise<void>;
  findById(brandId: number, id: number): Promise<ApiApp | null>;
  /** The app with the id, of whichever brand: only for the operator's `rotate-app-key --app` (reviewed cross-brand). */
  findByIdAnyBrand(id: number): Promise<ApiApp | null>;
  /** The app of any brand whose public client id is `clientId` (exact match). */
  findByClientId(clientId: string): Promise<ApiApp | null>;
  /** The brand's apps, oldest first (the console's choice of app). */
  listForBrand(brandId: number): Promise<ApiApp[]>;
  /** The app's registered redirect URIs in the order they were registered; none for another brand's app. */
  findRedirectUris(brandId: number, appId: number): Promise<string[]>;
  /** Makes `redirectUris` (already checked, without repeats) exactly the app's registered redirect URIs. */
  replaceRedirectUris(brandId: number, appId: number, redirectUris: string[]): Promise<void>;
  /**
   * Stores `appKeyHash` as the app's key (a rotation) and advances the credentials revision in the
   * same transaction (see `AccessTokenRepository.credentialsRevision`), so no verifier goes on
   * accepting the old key from its cache; false (and nothing changed) when the brand has no such app.
   */
  replaceAppKeyHash(brandId: number, appId: number, appKeyHash: string): Promise<boolean>;
}

/**
 * Fixed-window counters of log-in attempts, one per key (an account or a client address), shared
 * by every process on the database. A window opens with the first attempt counted after the
 * previous one closed and lasts `windowMs`.
 * @example const { attempts, resetAtMs } = await tx.loginAttempts.count('login:account:anna@north.example', 900_000, Date.parse(clock.now()));
 */
export interface LoginAttemptRepository {
  /**
   * Counts one attempt on `key` at `nowMs`, atomically (concurrent attempts from any number of
   * processes each count once); answers the attempts of the open window, this one included, and
   * when the window closes.
   */
  count(key: string, windowMs: number, nowMs: number): Promise<{ attempts: number; resetAtMs: number }>;
  /** Takes one attempt back from the window closing at `resetAtMs`; nothing when that window is over. */
  takeBack(key: string, resetAtMs: number): Promise<void>;
  /** Forgets every attempt on `key`. */
  clear(key: string): Promise<void>;
  /**
   * Deletes at most `limit` counters whose window closed at or before `nowMs`; answers how many
   * went. A closed window counts nothing (the next attempt opens a new one, as on a missing key),
   * so this changes no count. Where the store is shared with other fixed-window counters (the SQL
   * adapters' `rate_limit_counters` also hold the API's rate limits), their closed windows go too,
   * by the same reasoning; open windows of any key stay.
   */
  deleteClosedWindows(nowMs: number, limit: number): Promise<number>;
}

/**
 * Access tokens. `findByHash` is the hot path of every request: adapters index `token_hash`.
 * @example const token = await tx.accessTokens.findByHash(hasher.hash(bearer));
 */
export interface AccessTokenRepository {
  insert(token: AccessToken): Promise<void>;
  findByHash(tokenHash: string): Promise<AccessToken | null>;
  findById(brandId: number, id: number): Promise<AccessToken | null>;
  /** The token with the id, of whichever brand: only for the operator's `revoke-token --id` (reviewed cross-brand). */
  findByIdAnyBrand(id: number): Promise<AccessToken | null>;
  /** The tokens of one user of the brand, newest first, revoked and expired ones included (the console's list). */
  listForUser(brandId: number, userId: number): Promise<AccessToken[]>;
  /**
   * Marks the token revoked at `at` and advances the credentials revision in the same
   * transaction; returns false (and changes nothing) when it was already revoked.
   */
  revoke(brandId: number, id: number, at: string): Promise<boolean>;
  /**
   * A number that advances with every change making a stored credential invalid (a revocation,
   * an app key rotation; any future deletion must advance it too). Whoever caches verified tokens
   * keeps them only while it is unchanged.
   */
  credentialsRevision(): Promise<number>;
  /**
   * Deletes at most `limit` tokens of any brand that ended before `before`: expired
   * (`expiresAt < before`) or revoked (`revokedAt < before`). Every such token is refused already,
   * so no cache holds it as valid and the credentials revision need not move. Answers how many went.
   */
  deleteEndedBefore(before: string, limit: number): Promise<number>;
}

/**
 * Which of a brand's recorded requests to read: those of one app, with a status in a range
 * (both ends included), older than a position; at most `limit`.
 */
export interface BrandRequestLogQuery {
  brandId: number;
  appId: number | null;
  status: { min: number; max: number } | null;
  before: RequestLogPosition | null;
  limit: number;
}

/** The log of API requests, recorded on the token's user and app. */
export interface RequestLogRepository {
  /** Appends a batch of entries (the API buffers them briefly to keep requests fast). */
  append(entries: RequestLogEntry[]): Promise<void>;
  /** Most recent entries of a user, newest first. */
  listForUser(brandId: number, userId: number, limit: number): Promise<RequestLogEntry[]>;
  /**
   * A brand's requests (every user and app of it), newest first by (`createdAt`, `id`), strictly
   * older than `before`. Adapters serve it from an index on the brand and that order (the log grows
   * with every request), and the app and failure filters from indexes of their own.
   * @example const page = await tx.requestLogs.listForBrand({ brandId, appId: null, status: { min: 400, max: 599 }, before: null, limit: 51 });
   */
  listForBrand(query: BrandRequestLogQuery): Promise<RecordedRequest[]>;
  /** Deletes at most `limit` entries of any brand recorded before `before`; answers how many went. */
  deleteCreatedBefore(before: string, limit: number): Promise<number>;
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
 * Hashes passwords with a slow, memory-hard function (the adapter uses scrypt) into a
 * self-describing string that names its parameters, so they can be raised later: hashes made
 * with older parameters still verify, and `needsRehash` says when to store a new one.
 * @example
 * const stored = await passwordHasher.hash('correct horse battery staple');
 * await passwordHasher.verify('correct horse battery staple', stored); // true
 */
export interface PasswordHasher {
  /** A new hash of `password` with a fresh random salt and the current parameters. */
  hash(password: string): Promise<string>;
  /** Whether `password` is the one `stored` was made from; compares in constant time. False for a malformed `stored`. */
  verify(password: string, stored: string): Promise<boolean>;
  /** Whether `stored` was made with other parameters than the current ones (hash the password again at the next log-in). */
  needsRehash(stored: string): boolean;
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
  loginAttempts: LoginAttemptRepository;
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
