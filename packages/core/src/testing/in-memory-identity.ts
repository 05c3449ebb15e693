import { AccessToken, ApiApp, Brand, RequestLogEntry, User } from '../identity/identity.entities';
import { IdentityRepositories } from '../identity/identity.ports';
import { InMemoryFactories } from './in-memory-factories';
import { refuseCrossBrandReference } from './in-memory-references';
import { removeUpTo } from './in-memory-removal';

/** A user's password hash and login e-mail (the SQL adapters keep them in the user's row). */
interface StoredLogin {
  userId: number;
  passwordHash: string;
  loginEmail: string;
}

/** Brands, users, API apps, access tokens, the request log and the log-in counters in memory. */
export interface IdentityState {
  brands: Brand[];
  users: User[];
  userLogins: StoredLogin[];
  apiApps: ApiApp[];
  /** Each app's redirect URIs in registration order, by `<brandId>:<appId>`. */
  redirectUris: Record<string, string[]>;
  accessTokens: AccessToken[];
  /** Each entry with the id it was given when appended (the SQL adapters draw a sequence). */
  requestLogs: (RequestLogEntry & { id: number })[];
  /** The last id given to a request log entry. */
  requestLogLastId: number;
  /** Advanced by every revocation and app key rotation (see `AccessTokenRepository.credentialsRevision`). */
  credentialsRevision: number;
  loginAttempts: Record<string, { attempts: number; resetAtMs: number }>;
}

export function emptyIdentityState(): IdentityState {
  return {
    brands: [],
    users: [],
    userLogins: [],
    apiApps: [],
    redirectUris: {},
    accessTokens: [],
    requestLogs: [],
    requestLogLastId: 0,
    credentialsRevision: 0,
    loginAttempts: {},
  };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Inserts or replaces by id, keeping a copy so callers cannot mutate stored state. */
function put<T extends { id: number }>(rows: T[], row: T): void {
  const index = rows.findIndex((r) => r.id === row.id);
  if (index >= 0) rows[index] = clone(row);
  else rows.push(clone(row));
}

/** The identity module's repositories in memory. */
export const inMemoryIdentityFactories: InMemoryFactories<IdentityRepositories, IdentityState> = {
  brands: (s) => ({
    async insert(brand) {
      put(s().brands, brand);
    },
    async findById(id) {
      return clone(s().brands.find((b) => b.id === id) ?? null);
    },
    async findFirst() {
      return clone([...s().brands].sort((a, b) => a.id - b.id)[0] ?? null);
    },
  }),
  users: (s) => ({
    async insert(user) {
      put(s().users, user);
    },
    async findById(brandId, id) {
      return clone(s().users.find((u) => u.id === id && u.brandId === brandId) ?? null);
    },
    async findByIdAnyBrand(id) {
      return clone(s().users.find((u) => u.id === id) ?? null);
    },
    async findByLoginEmail(loginEmail) {
      const login = s().userLogins.find((l) => l.loginEmail === loginEmail);
      const user = login && s().users.find((u) => u.id === login.userId);
      return user && login ? clone({ user, passwordHash: login.passwordHash }) : null;
    },
    async setPassword(brandId, userId, { passwordHash, loginEmail }) {
      if (!s().users.some((u) => u.id === userId && u.brandId === brandId)) return false;
      // What the SQL adapters' unique index on the login e-mail refuses.
      if (s().userLogins.some((l) => l.loginEmail === loginEmail && l.userId !== userId))
        throw new Error(`another user already logs in with ${loginEmail}`);
      s().userLogins = [...s().userLogins.filter((l) => l.userId !== userId), { userId, passwordHash, loginEmail }];
      return true;
    },
  }),
  apiApps: (s) => ({
    async insert(app) {
      put(s().apiApps, app);
    },
    async findById(brandId, id) {
      return clone(s().apiApps.find((a) => a.id === id && a.brandId === brandId) ?? null);
    },
    async findByIdAnyBrand(id) {
      return clone(s().apiApps.find((a) => a.id === id) ?? null);
    },
    async findByClientId(clientId) {
      return clone(s().apiApps.find((a) => a.clientId === clientId) ?? null);
    },
    async listForBrand(brandId) {
      return clone(
        s()
          .apiApps.filter((a) => a.brandId === brandId)
          .sort((a, b) => a.id - b.id),
      );
    },
    async findRedirectUris(brandId, appId) {
      return [...(s().redirectUris[`${brandId}:${appId}`] ?? [])];
    },
    async replaceRedirectUris(brandId, appId, redirectUris) {
      s().redirectUris[`${brandId}:${appId}`] = [...redirectUris];
    },
    async replaceAppKeyHash(brandId, appId, appKeyHash) {
      const app = s().apiApps.find((a) => a.id === appId && a.brandId === brandId);
      if (!app) return false;
      app.appKeyHash = appKeyHash;
      s().credentialsRevision += 1;
      return true;
    },
  }),
  accessTokens: (s) => ({
    async insert(token) {
      refuseCrossBrandReference('user', token.brandId, token.userId, s().users);
      refuseCrossBrandReference('api app', token.brandId, token.appId, s().apiApps);
      put(s().accessTokens, token);
    },
    async findByHash(hash) {
      return clone(s().accessTokens.find((t) => t.tokenHash === hash) ?? null);
    },
    async findById(brandId, id) {
      return clone(s().accessTokens.find((t) => t.id === id && t.brandId === brandId) ?? null);
    },
    async findByIdAnyBrand(id) {
      return clone(s().accessTokens.find((t) => t.id === id) ?? null);
    },
    async listForUser(brandId, userId) {
      return clone(
        s()
          .accessTokens.filter((t) => t.brandId === brandId && t.userId === userId)
          .sort((a, b) => b.id - a.id),
      );
    },
    async revoke(brandId, id, at) {
      const token = s().accessTokens.find((t) => t.id === id && t.brandId === brandId);
      if (!token || token.revokedAt) return false;
      token.revokedAt = at;
      s().credentialsRevision += 1;
      return true;
    },
    async credentialsRevision() {
      return s().credentialsRevision;
    },
    async deleteEndedBefore(before, limit) {
      const ended = (t: AccessToken) => t.expiresAt < before || (t.revokedAt !== null && t.revokedAt < before);
      return removeUpTo(s().accessTokens, ended, limit).length;
    },
  }),
  requestLogs: (s) => ({
    async append(entries) {
      for (const entry of clone(entries)) s().requestLogs.push({ ...entry, id: (s().requestLogLastId += 1) });
    },
    async deleteCreatedBefore(before, limit) {
      return removeUpTo(s().requestLogs, (e) => e.createdAt < before, limit).length;
    },
    async listForUser(brandId, userId, limit) {
      return clone(
        s()
          .requestLogs.filter((e) => e.brandId === brandId && e.userId === userId)
          .reverse()
          .slice(0, limit)
          .map(({ id: _id, ...entry }) => entry),
      );
    },
    async listForBrand({ brandId, appId, status, before, limit }) {
      const recorded = s().requestLogs;
      const older = (e: { createdAt: string; id: number }) =>
        before === null || e.createdAt < before.createdAt || (e.createdAt === before.createdAt && e.id < before.id);
      return clone(
        recorded
          .filter(
            (e) =>
              e.brandId === brandId &&
              (appId === null || e.appId === appId) &&
              (status === null || (e.status >= status.min && e.status <= status.max)) &&
              older(e),
          )
          .sort((a, b) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1))
          .slice(0, limit),
      );
    },
  }),
  loginAttempts: (s) => ({
    async count(key, windowMs, nowMs) {
      const open = s().loginAttempts[key];
      const counter =
        open && open.resetAtMs > nowMs
          ? { attempts: open.attempts + 1, resetAtMs: open.resetAtMs }
          : { attempts: 1, resetAtMs: nowMs + windowMs };
      s().loginAttempts[key] = counter;
      return { ...counter };
    },
    async takeBack(key, resetAtMs) {
      const counter = s().loginAttempts[key];
      if (counter && counter.resetAtMs === resetAtMs && counter.attempts > 0) counter.attempts -= 1;
    },
    async clear(key) {
      delete s().loginAttempts[key];
    },
    async deleteClosedWindows(nowMs, limit) {
      const closed = Object.keys(s().loginAttempts)
        .filter((key) => s().loginAttempts[key]!.resetAtMs <= nowMs)
        .slice(0, limit);
      for (const key of closed) delete s().loginAttempts[key];
      return closed.length;
    },
  }),
};
