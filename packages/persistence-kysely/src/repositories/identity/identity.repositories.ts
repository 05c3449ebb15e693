import {
  AccessToken,
  AccessTokenRepository,
  ApiApp,
  ApiAppRepository,
  Brand,
  BrandRepository,
  IdentityRepositories,
  LoginAttemptRepository,
  RequestLogEntry,
  RequestLogRepository,
  Scope,
  User,
  UserRepository,
} from '@brand/core';
import { CompiledQuery, Selectable, SqlBool, sql } from 'kysely';
import {
  AccessTokensTable,
  ApiAppsTable,
  BrandsTable,
  RequestLogsTable,
  UsersTable,
} from '../../tables/identity.tables';
import { deleteAtMost, deleteAtMostReturning } from '../bounded-delete';
import { claimLookup, LOOKUP, readInAnyBrand, readInBrandOf, releaseLookups } from '../brand-lookups';
import { bulkInsert } from '../bulk-insert';
import { execute, Executor, RepositoryFactories } from '../executor';
import { prepareOnPostgres } from '../../prepared-statements';
import { hitCounter, resetCounter } from '../rate-limit-counters';

// Read on every authenticated request: written once as SQL (the same in both dialects) rather
// than built and compiled by the query builder each time.
const READ_CREDENTIALS_REVISION = CompiledQuery.raw(
  'select revision from credentials_revision where id = 1',
) as CompiledQuery<{ revision: number | string }>;
prepareOnPostgres(READ_CREDENTIALS_REVISION.sql);
const ADVANCE_CREDENTIALS_REVISION = CompiledQuery.raw(
  'update credentials_revision set revision = revision + 1 where id = 1',
);

const rowToBrand = (r: Selectable<BrandsTable>): Brand => ({
  id: Number(r.id),
  name: r.name,
  currency: r.currency,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const rowToUser = (r: Selectable<UsersTable>): User => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  email: r.email,
  name: r.name,
  createdAt: r.created_at,
});
const rowToApiApp = (r: Selectable<ApiAppsTable>): ApiApp => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  clientId: r.client_id,
  name: r.name,
  appKeyHash: r.app_key_hash,
  internalCode: r.internal_code,
  createdAt: r.created_at,
});
const rowToAccessToken = (r: Selectable<AccessTokensTable>): AccessToken => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  userId: Number(r.user_id),
  appId: Number(r.app_id),
  tokenHash: r.token_hash,
  scopes: JSON.parse(r.scopes) as Scope[],
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  createdAt: r.created_at,
});
const rowToRequestLog = (r: Selectable<RequestLogsTable>): RequestLogEntry => ({
  brandId: Number(r.brand_id),
  userId: Number(r.user_id),
  appId: Number(r.app_id),
  tokenId: Number(r.token_id),
  method: r.method,
  path: r.path,
  route: r.route,
  status: r.status,
  durationMs: r.duration_ms,
  requestId: r.request_id,
  traceId: r.trace_id,
  createdAt: r.created_at,
});

export function brandRepository({ db }: Executor): BrandRepository {
  return {
    async insert(b) {
      await db
        .insertInto('brands')
        .values({ id: b.id, name: b.name, currency: b.currency, created_at: b.createdAt, updated_at: b.updatedAt })
        .execute();
    },
    async findById(id) {
      const row = await db.selectFrom('brands').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? rowToBrand(row) : null;
    },
    async findFirst() {
      const row = await db.selectFrom('brands').selectAll().orderBy('id').limit(1).executeTakeFirst();
      return row ? rowToBrand(row) : null;
    },
  };
}

export function userRepository(executor: Executor): UserRepository {
  const { db } = executor;
  return {
    async insert(u) {
      await db
        .insertInto('users')
        .values({ id: u.id, brand_id: u.brandId, email: u.email, name: u.name, created_at: u.createdAt })
        .execute();
    },
    async findById(brandId, id) {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? rowToUser(row) : null;
    },
    async findByIdAnyBrand(id) {
      const row = await readInAnyBrand(executor, async (brandId) => {
        const found = await db
          .selectFrom('users')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('id', '=', id)
          .executeTakeFirst();
        return found ?? null;
      });
      return row ? rowToUser(row) : null;
    },
    async findByLoginEmail(loginEmail) {
      const row = await readInBrandOf(executor, LOOKUP.loginEmail, loginEmail, async (brandId) => {
        const found = await db
          .selectFrom('users')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('login_email', '=', loginEmail)
          .executeTakeFirst();
        return found ?? null;
      });
      return row?.password_hash ? { user: rowToUser(row), passwordHash: row.password_hash } : null;
    },
    async setPassword(brandId, userId, { passwordHash, loginEmail }) {
      const before = await db
        .selectFrom('users')
        .select('login_email')
        .where('brand_id', '=', brandId)
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!before) return false;
      // The e-mail's uniqueness across brands is the look-up's key: claimed before the row changes.
      if (before.login_email !== loginEmail) {
        if (before.login_email !== null) await releaseLookups(executor, LOOKUP.loginEmail, [before.login_email]);
        await claimLookup(executor, LOOKUP.loginEmail, loginEmail, brandId);
      }
      const result = await db
        .updateTable('users')
        .set({ password_hash: passwordHash, login_email: loginEmail })
        .where('brand_id', '=', brandId)
        .where('id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export function apiAppRepository(executor: Executor): ApiAppRepository {
  const { db } = executor;
  return {
    async insert(a) {
      await claimLookup(executor, LOOKUP.oauthClient, a.clientId, a.brandId);
      await db
        .insertInto('api_apps')
        .values({
          id: a.id,
          brand_id: a.brandId,
          name: a.name,
          app_key_hash: a.appKeyHash,
          internal_code: a.internalCode,
          client_id: a.clientId,
          created_at: a.createdAt,
        })
        .execute();
    },
    async findById(brandId, id) {
      const row = await db
        .selectFrom('api_apps')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? rowToApiApp(row) : null;
    },
    async findByIdAnyBrand(id) {
      const row = await readInAnyBrand(executor, async (brandId) => {
        const found = await db
          .selectFrom('api_apps')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('id', '=', id)
          .executeTakeFirst();
        return found ?? null;
      });
      return row ? rowToApiApp(row) : null;
    },
    async findByClientId(clientId) {
      const row = await readInBrandOf(executor, LOOKUP.oauthClient, clientId, async (brandId) => {
        const found = await db
          .selectFrom('api_apps')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('client_id', '=', clientId)
          .executeTakeFirst();
        return found ?? null;
      });
      return row ? rowToApiApp(row) : null;
    },
    async listForBrand(brandId) {
      const rows = await db.selectFrom('api_apps').selectAll().where('brand_id', '=', brandId).orderBy('id').execute();
      return rows.map(rowToApiApp);
    },
    async findRedirectUris(brandId, appId) {
      const rows = await db
        .selectFrom('api_app_redirect_uris')
        .select('uri')
        .where('brand_id', '=', brandId)
        .where('app_id', '=', appId)
        .orderBy('position')
        .execute();
      return rows.map((r) => r.uri);
    },
    async replaceRedirectUris(brandId, appId, redirectUris) {
      await db
        .deleteFrom('api_app_redirect_uris')
        .where('brand_id', '=', brandId)
        .where('app_id', '=', appId)
        .execute();
      if (redirectUris.length === 0) return;
      await db
        .insertInto('api_app_redirect_uris')
        .values(redirectUris.map((uri, position) => ({ brand_id: brandId, app_id: appId, uri, position })))
        .execute();
    },
    async replaceAppKeyHash(brandId, appId, appKeyHash) {
      const result = await db
        .updateTable('api_apps')
        .set({ app_key_hash: appKeyHash })
        .where('brand_id', '=', brandId)
        .where('id', '=', appId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      // In the caller's transaction: the revision moves if and only if the new key commits.
      await db.executeQuery(ADVANCE_CREDENTIALS_REVISION);
      return true;
    },
  };
}

/**
 * Log-in attempts on the API's rate-limit counters (`rate_limit_counters`, keys `login:…`): the same
 * fixed windows and the same one-statement count, so concurrent attempts on any process count
 * exactly, and no second table of counters to keep.
 */
export function loginAttemptRepository({ db }: Executor): LoginAttemptRepository {
  return {
    async count(key, windowMs, nowMs) {
      const { hits, resetAtMs } = await hitCounter(db, key, windowMs, nowMs, 1);
      return { attempts: hits, resetAtMs };
    },
    async takeBack(key, resetAtMs) {
      await db
        .updateTable('rate_limit_counters')
        .set((eb) => ({ hits: eb('hits', '-', 1) }))
        .where('key', '=', key)
        .where('reset_at_ms', '=', resetAtMs)
        .where('hits', '>', 0)
        .execute();
    },
    clear: (key) => resetCounter(db, key),
    // Every closed window of the table, the API's rate limits' too (see the port).
    deleteClosedWindows: (nowMs, limit) =>
      deleteAtMost(db, 'rate_limit_counters', ['key'], limit, (eb) => eb('reset_at_ms', '<=', nowMs)),
  };
}

export function accessTokenRepository(executor: Executor): AccessTokenRepository {
  const { db } = executor;
  return {
    async insert(t) {
      await claimLookup(executor, LOOKUP.accessToken, t.tokenHash, t.brandId);
      await db
        .insertInto('access_tokens')
        .values({
          id: t.id,
          brand_id: t.brandId,
          user_id: t.userId,
          app_id: t.appId,
          token_hash: t.tokenHash,
          scopes: JSON.stringify(t.scopes),
          expires_at: t.expiresAt,
          revoked_at: t.revokedAt,
          created_at: t.createdAt,
        })
        .execute();
    },
    async findByHash(tokenHash) {
      const row = await readInBrandOf(executor, LOOKUP.accessToken, tokenHash, async (brandId) => {
        const found = await db
          .selectFrom('access_tokens')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('token_hash', '=', tokenHash)
          .executeTakeFirst();
        return found ?? null;
      });
      return row ? rowToAccessToken(row) : null;
    },
    async findById(brandId, id) {
      const row = await db
        .selectFrom('access_tokens')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? rowToAccessToken(row) : null;
    },
    async findByIdAnyBrand(id) {
      const row = await readInAnyBrand(executor, async (brandId) => {
        const found = await db
          .selectFrom('access_tokens')
          .selectAll()
          .where('brand_id', '=', brandId)
          .where('id', '=', id)
          .executeTakeFirst();
        return found ?? null;
      });
      return row ? rowToAccessToken(row) : null;
    },
    async listForUser(brandId, userId) {
      const rows = await db
        .selectFrom('access_tokens')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .execute();
      return rows.map(rowToAccessToken);
    },
    async revoke(brandId, id, at) {
      const result = await db
        .updateTable('access_tokens')
        .set({ revoked_at: at })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await db.executeQuery(ADVANCE_CREDENTIALS_REVISION);
      return true;
    },
    async credentialsRevision() {
      const { rows } = await execute(executor, READ_CREDENTIALS_REVISION);
      return Number(rows[0]?.revision ?? 0);
    },
    async deleteEndedBefore(before, limit) {
      const hashes = await deleteAtMostReturning(
        db,
        'access_tokens',
        ['brand_id', 'id'],
        limit,
        (eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]),
        'token_hash',
      );
      await releaseLookups(executor, LOOKUP.accessToken, hashes as string[]);
      return hashes.length;
    },
  };
}

export function requestLogRepository(
  executor: Executor,
  nextIds: (count: number) => Promise<number[]>,
): RequestLogRepository {
  const { db } = executor;
  return {
    async append(entries) {
      if (entries.length === 0) return;
      const ids = await nextIds(entries.length);
      // As raw multi-row inserts: a flush holds hundreds of rows under load (the query builder would
      // build a node per value), of a count that changes with every flush.
      const rows = entries.map((e, i) => ({
        id: ids[i]!,
        brand_id: e.brandId,
        user_id: e.userId,
        app_id: e.appId,
        token_id: e.tokenId,
        method: e.method,
        path: e.path,
        route: e.route,
        status: e.status,
        duration_ms: e.durationMs,
        request_id: e.requestId,
        trace_id: e.traceId,
        created_at: e.createdAt,
      }));
      // A flush holds requests of many brands: bulkInsert writes them brand by brand on Postgres.
      await bulkInsert(executor, 'request_logs', rows, { reuseStatements: true });
    },
    async listForUser(brandId, userId, limit) {
      const rows = await db
        .selectFrom('request_logs')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(rowToRequestLog);
    },
    async listForBrand({ brandId, appId, status, before, limit }) {
      // Each shape walks one index of migration 0013 newest first from `before` and stops after `limit`.
      let query = db.selectFrom('request_logs').selectAll().where('brand_id', '=', brandId);
      if (appId !== null) query = query.where('app_id', '=', appId);
      if (status !== null) {
        // The failures index's own condition, as a literal: SQLite uses a partial index only for a
        // query that states its condition (a bound value is unknown when the statement is planned).
        if (status.min >= 400) query = query.where(sql<SqlBool>`status >= 400`);
        query = query.where('status', '>=', status.min).where('status', '<=', status.max);
      }
      if (before !== null)
        // (created_at, id) < before, with a plain bound on created_at that starts the index range.
        query = query
          .where('created_at', '<=', before.createdAt)
          .where((eb) => eb.or([eb('created_at', '<', before.createdAt), eb('id', '<', before.id)]));
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map((row) => ({ ...rowToRequestLog(row), id: Number(row.id) }));
    },
    deleteCreatedBefore: (before, limit) =>
      deleteAtMost(db, 'request_logs', ['brand_id', 'id'], limit, (eb) => eb('created_at', '<', before)),
  };
}

/** The identity module's repositories, as the unit of work makes them. */
export const identityRepositoryFactories: RepositoryFactories<IdentityRepositories> = {
  brands: (executor) => brandRepository(executor),
  users: (executor) => userRepository(executor),
  apiApps: (executor) => apiAppRepository(executor),
  accessTokens: (executor) => accessTokenRepository(executor),
  requestLogs: (executor, bound) => requestLogRepository(executor, (count) => bound.ids.next('request_logs', count)),
  loginAttempts: (executor) => loginAttemptRepository(executor),
};
