import { GrantAccessTokenLink, OAuthAuthorizationCode, OAuthGrant, OAuthRefreshToken } from '../oauth/oauth.entities';
import { OAuthRepositories } from '../oauth/oauth.ports';
import { InMemoryFactories } from './in-memory-factories';
import { removeUpTo } from './in-memory-removal';

/**
 * OAuth grants, their access token links, authorization codes and refresh tokens in memory, with
 * the semantics every adapter must match (the OAuth contract suite checks them): rows of another
 * brand are never found or changed, and each conditional change succeeds for one caller only
 * (transactions here are serialised, so that holds by construction).
 */
export interface OAuthState {
  oauthGrants: OAuthGrant[];
  oauthGrantAccessTokens: GrantAccessTokenLink[];
  oauthAuthorizationCodes: OAuthAuthorizationCode[];
  oauthRefreshTokens: OAuthRefreshToken[];
}

export function emptyOAuthState(): OAuthState {
  return { oauthGrants: [], oauthGrantAccessTokens: [], oauthAuthorizationCodes: [], oauthRefreshTokens: [] };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The brand's row with that id, as stored (callers clone what they hand out). */
const rowOf = <T extends { brandId: number; id: number }>(rows: T[], brandId: number, id: number): T | undefined =>
  rows.find((r) => r.brandId === brandId && r.id === id);

/** Adds a row, refusing a second row with the brand and id (or hash) of one stored, as the SQL keys do. */
function insertUnique<T extends { brandId: number; id: number }>(rows: T[], row: T, hashOf?: (r: T) => string): void {
  if (rowOf(rows, row.brandId, row.id)) throw new Error(`row ${row.brandId}/${row.id} exists already`);
  if (hashOf && rows.some((r) => r.brandId === row.brandId && hashOf(r) === hashOf(row)))
    throw new Error(`a row of brand ${row.brandId} has that hash already`);
  rows.push(clone(row));
}

export const inMemoryOAuthFactories: InMemoryFactories<OAuthRepositories, OAuthState> = {
  oauthGrants: (s) => ({
    async insert(grant) {
      insertUnique(s().oauthGrants, grant);
    },
    async findById(brandId, id) {
      return clone(rowOf(s().oauthGrants, brandId, id) ?? null);
    },
    async holdLive(brandId, id) {
      const grant = rowOf(s().oauthGrants, brandId, id);
      return grant && grant.revokedAt === null ? clone(grant) : null;
    },
    async revoke(brandId, id, at) {
      const grant = rowOf(s().oauthGrants, brandId, id);
      if (!grant || grant.revokedAt !== null) return false;
      grant.revokedAt = at;
      return true;
    },
    async linkAccessToken(link) {
      s().oauthGrantAccessTokens.push(clone(link));
    },
    async accessTokenIdsLiveAt(brandId, grantId, at) {
      return s()
        .oauthGrantAccessTokens.filter((l) => l.brandId === brandId && l.grantId === grantId && l.expiresAt > at)
        .map((l) => l.accessTokenId)
        .sort((a, b) => a - b);
    },
    async deleteEnded(at, limit) {
      const state = s();
      const liveIn = (grant: OAuthGrant) =>
        state.oauthRefreshTokens.some(
          (t) =>
            t.brandId === grant.brandId &&
            t.grantId === grant.id &&
            t.revokedAt === null &&
            t.expiresAt > at &&
            t.replacedById === null,
        ) ||
        state.oauthGrantAccessTokens.some(
          (l) => l.brandId === grant.brandId && l.grantId === grant.id && l.expiresAt > at,
        );
      const ended = removeUpTo(state.oauthGrants, (grant) => !liveIn(grant), limit);
      // What the SQL keys' ON DELETE CASCADE takes with a grant.
      const gone = (row: { brandId: number; grantId: number | null }) =>
        ended.some((g) => g.brandId === row.brandId && g.id === row.grantId);
      state.oauthRefreshTokens = state.oauthRefreshTokens.filter((t) => !gone(t));
      state.oauthGrantAccessTokens = state.oauthGrantAccessTokens.filter((l) => !gone(l));
      state.oauthAuthorizationCodes = state.oauthAuthorizationCodes.filter((c) => !gone(c));
      return ended.length;
    },
    async deleteAccessTokenLinksExpiredBy(at, limit) {
      return removeUpTo(s().oauthGrantAccessTokens, (l) => l.expiresAt <= at, limit).length;
    },
  }),
  oauthAuthorizationCodes: (s) => ({
    async insert(code) {
      insertUnique(s().oauthAuthorizationCodes, code, (c) => c.codeHash);
    },
    async findByHash(brandId, codeHash) {
      return clone(s().oauthAuthorizationCodes.find((c) => c.brandId === brandId && c.codeHash === codeHash) ?? null);
    },
    async findById(brandId, id) {
      return clone(rowOf(s().oauthAuthorizationCodes, brandId, id) ?? null);
    },
    async markUsed(brandId, id, at) {
      const code = rowOf(s().oauthAuthorizationCodes, brandId, id);
      if (!code || code.usedAt !== null || code.expiresAt <= at) return false;
      code.usedAt = at;
      return true;
    },
    async markReused(brandId, id, at) {
      const code = rowOf(s().oauthAuthorizationCodes, brandId, id);
      if (!code) return null;
      code.reusedAt ??= at;
      return code.grantId;
    },
    async linkGrant(brandId, id, grantId) {
      const code = rowOf(s().oauthAuthorizationCodes, brandId, id);
      if (!code || code.usedAt === null || code.grantId !== null || code.reusedAt !== null) return false;
      code.grantId = grantId;
      return true;
    },
    async deleteExpiredWithoutGrant(expiredBy, limit) {
      return removeUpTo(s().oauthAuthorizationCodes, (c) => c.grantId === null && c.expiresAt <= expiredBy, limit)
        .length;
    },
  }),
  oauthRefreshTokens: (s) => ({
    async insert(token) {
      insertUnique(s().oauthRefreshTokens, token, (t) => t.tokenHash);
    },
    async findByHash(brandId, tokenHash) {
      return clone(s().oauthRefreshTokens.find((t) => t.brandId === brandId && t.tokenHash === tokenHash) ?? null);
    },
    async findById(brandId, id) {
      return clone(rowOf(s().oauthRefreshTokens, brandId, id) ?? null);
    },
    async markSpent(brandId, id, at) {
      const token = rowOf(s().oauthRefreshTokens, brandId, id);
      if (!token || token.spentAt !== null || token.revokedAt !== null || token.expiresAt <= at) return false;
      token.spentAt = at;
      return true;
    },
    async markReplaced(brandId, id, replacedById) {
      const token = rowOf(s().oauthRefreshTokens, brandId, id);
      if (!token || token.spentAt === null || token.replacedById !== null) return false;
      token.replacedById = replacedById;
      return true;
    },
    async revokeForGrant(brandId, grantId, at) {
      for (const token of s().oauthRefreshTokens)
        if (token.brandId === brandId && token.grantId === grantId && token.revokedAt === null) token.revokedAt = at;
    },
    async deleteExpiredBy(at, limit) {
      return removeUpTo(s().oauthRefreshTokens, (t) => t.expiresAt <= at, limit).length;
    },
  }),
};
