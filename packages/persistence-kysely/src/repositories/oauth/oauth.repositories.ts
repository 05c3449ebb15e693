import {
  OAuthAuthorizationCode,
  OAuthAuthorizationCodeRepository,
  OAuthGrant,
  OAuthGrantRepository,
  OAuthRefreshToken,
  OAuthRefreshTokenRepository,
  OAuthRepositories,
  PkceMethod,
  Scope,
} from '@brand/core';
import { Selectable } from 'kysely';
import { OAuthAuthorizationCodesTable, OAuthGrantsTable, OAuthRefreshTokensTable } from '../../tables/oauth.tables';
import { deleteAtMost } from '../bounded-delete';
import { Executor, RepositoryFactories } from '../executor';
import { fromJson, toJson, toNullableNumber } from '../json-columns';

// Every statement names the brand first: the keys lead with brand_id (DESIGN §9), so no statement
// reads or changes another brand's row. The changes that must succeed once are single conditional
// UPDATEs: on Postgres a concurrent one waits for the row lock and then re-checks its WHERE against
// the committed row (so it changes nothing); SQLite runs one writer at a time.

const rowToGrant = (r: Selectable<OAuthGrantsTable>): OAuthGrant => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  appId: Number(r.app_id),
  userId: Number(r.user_id),
  scopes: fromJson<Scope[]>(r.scopes, []),
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

const rowToCode = (r: Selectable<OAuthAuthorizationCodesTable>): OAuthAuthorizationCode => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  appId: Number(r.app_id),
  userId: Number(r.user_id),
  codeHash: r.code_hash,
  redirectUri: r.redirect_uri,
  scopes: fromJson<Scope[]>(r.scopes, []),
  codeChallenge: r.code_challenge,
  codeChallengeMethod: r.code_challenge_method as PkceMethod,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
  reusedAt: r.reused_at,
  grantId: toNullableNumber(r.grant_id),
  createdAt: r.created_at,
});

const rowToRefreshToken = (r: Selectable<OAuthRefreshTokensTable>): OAuthRefreshToken => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  grantId: Number(r.grant_id),
  tokenHash: r.token_hash,
  expiresAt: r.expires_at,
  spentAt: r.spent_at,
  revokedAt: r.revoked_at,
  replacedById: toNullableNumber(r.replaced_by_id),
  createdAt: r.created_at,
});

const changedOne = (result: { numUpdatedRows: bigint }): boolean => Number(result.numUpdatedRows) > 0;

export function oauthGrantRepository({ db, dialect }: Executor): OAuthGrantRepository {
  return {
    async insert(g) {
      await db
        .insertInto('oauth_grants')
        .values({
          brand_id: g.brandId,
          id: g.id,
          app_id: g.appId,
          user_id: g.userId,
          scopes: toJson(g.scopes),
          created_at: g.createdAt,
          revoked_at: g.revokedAt,
        })
        .execute();
    },
    async findById(brandId, id) {
      const row = await db
        .selectFrom('oauth_grants')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? rowToGrant(row) : null;
    },
    async holdLive(brandId, id) {
      const live = db
        .selectFrom('oauth_grants')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null);
      // FOR UPDATE waits for a revocation in progress and then re-checks `revoked_at` against the
      // committed row. SQLite has no row locks and needs none: its writers run one at a time.
      const row = await (dialect === 'postgres' ? live.forUpdate() : live).executeTakeFirst();
      return row ? rowToGrant(row) : null;
    },
    async revoke(brandId, id, at) {
      const result = await db
        .updateTable('oauth_grants')
        .set({ revoked_at: at })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return changedOne(result);
    },
    async linkAccessToken(link) {
      await db
        .insertInto('oauth_grant_access_tokens')
        .values({
          brand_id: link.brandId,
          grant_id: link.grantId,
          access_token_id: link.accessTokenId,
          expires_at: link.expiresAt,
        })
        .execute();
    },
    async accessTokenIdsLiveAt(brandId, grantId, at) {
      const rows = await db
        .selectFrom('oauth_grant_access_tokens')
        .select('access_token_id')
        .where('brand_id', '=', brandId)
        .where('grant_id', '=', grantId)
        .where('expires_at', '>', at)
        .orderBy('access_token_id')
        .execute();
      return rows.map((r) => Number(r.access_token_id));
    },
    deleteEnded: (at, limit) =>
      // The codes, refresh tokens and links of the grant go by their keys' ON DELETE CASCADE.
      deleteAtMost(db, 'oauth_grants', ['brand_id', 'id'], limit, (eb) =>
        eb.and([
          eb.not(
            eb.exists(
              eb
                .selectFrom('oauth_refresh_tokens as live')
                .select('live.id')
                .whereRef('live.brand_id', '=', 'oauth_grants.brand_id')
                .whereRef('live.grant_id', '=', 'oauth_grants.id')
                .where('live.revoked_at', 'is', null)
                .where('live.expires_at', '>', at)
                .where('live.replaced_by_id', 'is', null),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('oauth_grant_access_tokens as link')
                .select('link.access_token_id')
                .whereRef('link.brand_id', '=', 'oauth_grants.brand_id')
                .whereRef('link.grant_id', '=', 'oauth_grants.id')
                .where('link.expires_at', '>', at),
            ),
          ),
        ]),
      ),
    deleteAccessTokenLinksExpiredBy: (at, limit) =>
      deleteAtMost(db, 'oauth_grant_access_tokens', ['brand_id', 'grant_id', 'access_token_id'], limit, (eb) =>
        eb('expires_at', '<=', at),
      ),
  };
}

export function oauthAuthorizationCodeRepository({ db }: Executor): OAuthAuthorizationCodeRepository {
  return {
    async insert(c) {
      await db
        .insertInto('oauth_authorization_codes')
        .values({
          brand_id: c.brandId,
          id: c.id,
          app_id: c.appId,
          user_id: c.userId,
          code_hash: c.codeHash,
          redirect_uri: c.redirectUri,
          scopes: toJson(c.scopes),
          code_challenge: c.codeChallenge,
          code_challenge_method: c.codeChallengeMethod,
          expires_at: c.expiresAt,
          used_at: c.usedAt,
          reused_at: c.reusedAt,
          grant_id: c.grantId,
          created_at: c.createdAt,
        })
        .execute();
    },
    async findByHash(brandId, codeHash) {
      const row = await db
        .selectFrom('oauth_authorization_codes')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('code_hash', '=', codeHash)
        .executeTakeFirst();
      return row ? rowToCode(row) : null;
    },
    async findById(brandId, id) {
      const row = await db
        .selectFrom('oauth_authorization_codes')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? rowToCode(row) : null;
    },
    async markUsed(brandId, id, at) {
      const result = await db
        .updateTable('oauth_authorization_codes')
        .set({ used_at: at })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return changedOne(result);
    },
    async markReused(brandId, id, at) {
      // RETURNING shows the row as this statement left it: when a transaction linking the grant
      // held the row, this waited for its commit and now sees the grant it linked.
      const row = await db
        .updateTable('oauth_authorization_codes')
        .set((eb) => ({ reused_at: eb.fn.coalesce('reused_at', eb.val(at)) }))
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .returning('grant_id')
        .executeTakeFirst();
      return row ? toNullableNumber(row.grant_id) : null;
    },
    async linkGrant(brandId, id, grantId) {
      const result = await db
        .updateTable('oauth_authorization_codes')
        .set({ grant_id: grantId })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('used_at', 'is not', null)
        .where('grant_id', 'is', null)
        .where('reused_at', 'is', null)
        .executeTakeFirst();
      return changedOne(result);
    },
    deleteExpiredWithoutGrant: (expiredBy, limit) =>
      deleteAtMost(db, 'oauth_authorization_codes', ['brand_id', 'id'], limit, (eb) =>
        eb.and([eb('grant_id', 'is', null), eb('expires_at', '<=', expiredBy)]),
      ),
  };
}

export function oauthRefreshTokenRepository({ db }: Executor): OAuthRefreshTokenRepository {
  return {
    async insert(t) {
      await db
        .insertInto('oauth_refresh_tokens')
        .values({
          brand_id: t.brandId,
          id: t.id,
          grant_id: t.grantId,
          token_hash: t.tokenHash,
          expires_at: t.expiresAt,
          spent_at: t.spentAt,
          revoked_at: t.revokedAt,
          replaced_by_id: t.replacedById,
          created_at: t.createdAt,
        })
        .execute();
    },
    async findByHash(brandId, tokenHash) {
      const row = await db
        .selectFrom('oauth_refresh_tokens')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ? rowToRefreshToken(row) : null;
    },
    async findById(brandId, id) {
      const row = await db
        .selectFrom('oauth_refresh_tokens')
        .selectAll()
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? rowToRefreshToken(row) : null;
    },
    async markSpent(brandId, id, at) {
      const result = await db
        .updateTable('oauth_refresh_tokens')
        .set({ spent_at: at })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('spent_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return changedOne(result);
    },
    async markReplaced(brandId, id, replacedById) {
      const result = await db
        .updateTable('oauth_refresh_tokens')
        .set({ replaced_by_id: replacedById })
        .where('brand_id', '=', brandId)
        .where('id', '=', id)
        .where('spent_at', 'is not', null)
        .where('replaced_by_id', 'is', null)
        .executeTakeFirst();
      return changedOne(result);
    },
    async revokeForGrant(brandId, grantId, at) {
      await db
        .updateTable('oauth_refresh_tokens')
        .set({ revoked_at: at })
        .where('brand_id', '=', brandId)
        .where('grant_id', '=', grantId)
        .where('revoked_at', 'is', null)
        .execute();
    },
    deleteExpiredBy: (at, limit) =>
      deleteAtMost(db, 'oauth_refresh_tokens', ['brand_id', 'id'], limit, (eb) => eb('expires_at', '<=', at)),
  };
}

/** The OAuth module's repositories, as the unit of work makes them. */
export const oauthRepositoryFactories: RepositoryFactories<OAuthRepositories> = {
  oauthGrants: (executor) => oauthGrantRepository(executor),
  oauthAuthorizationCodes: (executor) => oauthAuthorizationCodeRepository(executor),
  oauthRefreshTokens: (executor) => oauthRefreshTokenRepository(executor),
};
