import { AccessToken, ApiApp, Brand, RequestLogEntry, User } from '../identity/identity.entities';
import { IdentityRepositories } from '../identity/identity.ports';
import { InMemoryFactories } from './in-memory-factories';

/** Brands, users, API apps, access tokens and the request log in memory. */
export interface IdentityState {
  brands: Brand[];
  users: User[];
  apiApps: ApiApp[];
  accessTokens: AccessToken[];
  requestLogs: RequestLogEntry[];
  /** Advanced by every revocation (see `AccessTokenRepository.credentialsRevision`). */
  credentialsRevision: number;
}

export function emptyIdentityState(): IdentityState {
  return { brands: [], users: [], apiApps: [], accessTokens: [], requestLogs: [], credentialsRevision: 0 };
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
    async findById(id) {
      return clone(s().users.find((u) => u.id === id) ?? null);
    },
  }),
  apiApps: (s) => ({
    async insert(app) {
      put(s().apiApps, app);
    },
    async findById(id) {
      return clone(s().apiApps.find((a) => a.id === id) ?? null);
    },
  }),
  accessTokens: (s) => ({
    async insert(token) {
      put(s().accessTokens, token);
    },
    async findByHash(hash) {
      return clone(s().accessTokens.find((t) => t.tokenHash === hash) ?? null);
    },
    async findById(id) {
      return clone(s().accessTokens.find((t) => t.id === id) ?? null);
    },
    async revoke(id, at) {
      const token = s().accessTokens.find((t) => t.id === id);
      if (!token || token.revokedAt) return false;
      token.revokedAt = at;
      s().credentialsRevision += 1;
      return true;
    },
    async credentialsRevision() {
      return s().credentialsRevision;
    },
  }),
  requestLogs: (s) => ({
    async append(entries) {
      s().requestLogs.push(...clone(entries));
    },
    async listForUser(brandId, userId, limit) {
      return clone(
        s()
          .requestLogs.filter((e) => e.brandId === brandId && e.userId === userId)
          .reverse()
          .slice(0, limit),
      );
    },
  }),
};
