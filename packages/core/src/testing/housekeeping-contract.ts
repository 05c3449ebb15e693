import { ConsoleSession } from '../console/console-session.entities';
import { createApiApp } from '../identity/create-api-app';
import { createUser } from '../identity/create-user';
import { AccessToken, ApiApp, RequestLogEntry, User } from '../identity/identity.entities';
import { OAuthAuthorizationCode, OAuthGrant, OAuthRefreshToken } from '../oauth/oauth.entities';
import { FixedClock } from '../shared/clock.ports';
import { Repositories } from '../shared/unit-of-work.ports';
import { ContractStorage, insertBrand, useContractStorage } from './contract-support';
import { FakeSecretHasher } from './fake-secret-hasher';

const T0 = '2026-09-01T08:00:00.000Z';
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The instant `ms` milliseconds after T0 (before it, for a negative `ms`). */
const at = (ms: number): string => new Date(Date.parse(T0) + ms).toISOString();

/** A user and an app of a brand of their own, so a test finds its rows among the other tests'. */
interface Tenant {
  user: User;
  app: ApiApp;
}

/**
 * The contract of the housekeeping deletes on every storage adapter: each deletes, across brands,
 * exactly the rows its rule names, at most `limit` per call (answering how many went), and keeps
 * everything else: a live session, an unexpired code or one that created a grant, an unexpired
 * refresh token, a grant with anything live in it, an access token that ended recently, an open
 * throttle window, a recent request. Every repository's rule is checked at its boundary instant.
 *
 * @example
 * describeHousekeepingContract('in-memory housekeeping', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeHousekeepingContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const clock = new FixedClock(T0);
    const hasher = new FakeSecretHasher();
    const deps = () => ({ uow: uow(), clock, hasher });

    async function aTenant(): Promise<Tenant> {
      const brand = await insertBrand(uow(), 'Housekeeping brand', T0);
      const user = await createUser(deps(), { brandId: brand.id, email: 'anna@north.example', name: 'Anna' });
      const { app } = await createApiApp(deps(), { brandId: brand.id, name: 'ERP' });
      return { user, app };
    }

    /** Runs one bounded delete in a transaction, answering how many rows went. */
    const deleting = (batch: (tx: Repositories) => Promise<number>) => uow().run(batch);

    /** Runs a bounded delete until a call deletes nothing; answers the total. */
    async function deletingAll(batch: (tx: Repositories, limit: number) => Promise<number>): Promise<number> {
      let total = 0;
      for (;;) {
        const deleted = await uow().run((tx) => batch(tx, 100));
        if (deleted === 0) return total;
        total += deleted;
      }
    }

    async function session(tenant: Tenant, times: { createdAt: string; lastSeenAt: string }): Promise<ConsoleSession> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('console_sessions');
        const row: ConsoleSession = {
          brandId: tenant.user.brandId,
          id: id!,
          userId: tenant.user.id,
          secretHash: hasher.hash(hasher.randomSecret()),
          ...times,
          expiresAt: new Date(Date.parse(times.createdAt) + 7 * DAY_MS).toISOString(),
        };
        await tx.consoleSessions.insert(row);
        return row;
      });
    }
    const sessionStored = (s: ConsoleSession) =>
      uow().read(async (r) => (await r.consoleSessions.findByHash(s.brandId, s.secretHash)) !== null);

    async function grant(tenant: Tenant, revokedAt: string | null = null): Promise<OAuthGrant> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('oauth_grants');
        const row: OAuthGrant = {
          id: id!,
          brandId: tenant.app.brandId,
          appId: tenant.app.id,
          userId: tenant.user.id,
          scopes: ['orders:read'],
          createdAt: T0,
          revokedAt,
        };
        await tx.oauthGrants.insert(row);
        return row;
      });
    }
    const grantStored = (g: OAuthGrant) =>
      uow().read(async (r) => (await r.oauthGrants.findById(g.brandId, g.id)) !== null);

    async function code(
      tenant: Tenant,
      fields: { expiresAt: string; usedAt?: string; grantId?: number },
    ): Promise<OAuthAuthorizationCode> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('oauth_authorization_codes');
        const row: OAuthAuthorizationCode = {
          id: id!,
          brandId: tenant.app.brandId,
          appId: tenant.app.id,
          userId: tenant.user.id,
          codeHash: hasher.hash(hasher.randomSecret()),
          redirectUri: 'https://erp.example.com/callback',
          scopes: ['orders:read'],
          codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          codeChallengeMethod: 'S256',
          expiresAt: fields.expiresAt,
          usedAt: fields.usedAt ?? null,
          reusedAt: null,
          grantId: fields.grantId ?? null,
          createdAt: T0,
        };
        await tx.oauthAuthorizationCodes.insert(row);
        return row;
      });
    }
    const codeStored = (c: OAuthAuthorizationCode) =>
      uow().read(async (r) => (await r.oauthAuthorizationCodes.findById(c.brandId, c.id)) !== null);

    async function refreshToken(
      g: OAuthGrant,
      fields: Partial<Pick<OAuthRefreshToken, 'spentAt' | 'revokedAt' | 'replacedById'>> & { expiresAt: string },
    ): Promise<OAuthRefreshToken> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('oauth_refresh_tokens');
        const row: OAuthRefreshToken = {
          id: id!,
          brandId: g.brandId,
          grantId: g.id,
          tokenHash: hasher.hash(hasher.randomSecret()),
          spentAt: null,
          revokedAt: null,
          replacedById: null,
          createdAt: T0,
          ...fields,
        };
        await tx.oauthRefreshTokens.insert(row);
        return row;
      });
    }
    const refreshTokenStored = (t: OAuthRefreshToken) =>
      uow().read(async (r) => (await r.oauthRefreshTokens.findById(t.brandId, t.id)) !== null);

    /** An access token of the tenant; issued in `inGrant` (linked to it) when given. */
    async function accessToken(
      tenant: Tenant,
      fields: { expiresAt: string; revokedAt?: string; inGrant?: OAuthGrant },
    ): Promise<AccessToken> {
      return uow().run(async (tx) => {
        const [id] = await tx.ids.next('access_tokens');
        const row: AccessToken = {
          id: id!,
          brandId: tenant.user.brandId,
          userId: tenant.user.id,
          appId: tenant.app.id,
          tokenHash: hasher.hash(hasher.randomSecret()),
          scopes: ['orders:read'],
          expiresAt: fields.expiresAt,
          revokedAt: fields.revokedAt ?? null,
          createdAt: T0,
        };
        await tx.accessTokens.insert(row);
        if (fields.inGrant)
          await tx.oauthGrants.linkAccessToken({
            brandId: row.brandId,
            grantId: fields.inGrant.id,
            accessTokenId: row.id,
            expiresAt: row.expiresAt,
          });
        return row;
      });
    }
    const accessTokenStored = (t: AccessToken) =>
      uow().read(async (r) => (await r.accessTokens.findById(t.brandId, t.id)) !== null);

    it('deletes console sessions past their absolute end or idle since the cut, and keeps a live one', async () => {
      const tenant = await aTenant();
      const now = at(10 * DAY_MS);
      const idleSince = at(10 * DAY_MS - 12 * HOUR_MS);
      // Busy to the last moment, but 7 days old: one past its end, one ending exactly now.
      const pastItsEnd = await session(tenant, { createdAt: at(2 * DAY_MS), lastSeenAt: at(10 * DAY_MS - 1) });
      const endingNow = await session(tenant, { createdAt: at(3 * DAY_MS), lastSeenAt: at(10 * DAY_MS - 1) });
      expect(endingNow.expiresAt).toBe(now);
      const idleExactly = await session(tenant, { createdAt: at(9 * DAY_MS), lastSeenAt: idleSince });
      const live = await session(tenant, { createdAt: at(9 * DAY_MS), lastSeenAt: at(10 * DAY_MS - 12 * HOUR_MS + 1) });

      expect(
        await deletingAll((tx, limit) => tx.consoleSessions.deleteEnded(now, idleSince, limit)),
      ).toBeGreaterThanOrEqual(3);
      expect(await sessionStored(pastItsEnd)).toBe(false);
      expect(await sessionStored(endingNow)).toBe(false);
      expect(await sessionStored(idleExactly)).toBe(false);
      expect(await sessionStored(live)).toBe(true);
    });

    it('deletes at most the limit per call (keys of one column or two), and answers how many went', async () => {
      const tenant = await aTenant();
      const now = at(20 * DAY_MS);
      const idleSince = at(20 * DAY_MS - 12 * HOUR_MS);
      const sessions = [];
      const tokens = [];
      for (let i = 0; i < 3; i++) {
        sessions.push(await session(tenant, { createdAt: T0, lastSeenAt: T0 }));
        tokens.push(await accessToken(tenant, { expiresAt: T0 }));
      }

      expect(await deleting((tx) => tx.consoleSessions.deleteEnded(now, idleSince, 2))).toBe(2);
      expect(await deleting((tx) => tx.accessTokens.deleteEndedBefore(now, 2))).toBe(2);
      expect(
        await deletingAll((tx, limit) => tx.consoleSessions.deleteEnded(now, idleSince, limit)),
      ).toBeGreaterThanOrEqual(1);
      expect(await deletingAll((tx, limit) => tx.accessTokens.deleteEndedBefore(now, limit))).toBeGreaterThanOrEqual(1);
      for (const s of sessions) expect(await sessionStored(s)).toBe(false);
      for (const t of tokens) expect(await accessTokenStored(t)).toBe(false);
    });

    it('deletes codes expired by the cut that created no grant, and keeps unexpired codes and those with a grant', async () => {
      const tenant = await aTenant();
      const cut = at(HOUR_MS);
      const expiredUnused = await code(tenant, { expiresAt: cut });
      const expiredUsedWithoutGrant = await code(tenant, { expiresAt: at(HOUR_MS - 1), usedAt: at(HOUR_MS - 2) });
      const unexpired = await code(tenant, { expiresAt: at(HOUR_MS + 1) });
      const itsGrant = await grant(tenant);
      const exchanged = await code(tenant, { expiresAt: at(-HOUR_MS), usedAt: at(-2 * HOUR_MS), grantId: itsGrant.id });

      expect(
        await deletingAll((tx, limit) => tx.oauthAuthorizationCodes.deleteExpiredWithoutGrant(cut, limit)),
      ).toBeGreaterThanOrEqual(2);
      expect(await codeStored(expiredUnused)).toBe(false);
      expect(await codeStored(expiredUsedWithoutGrant)).toBe(false);
      expect(await codeStored(unexpired)).toBe(true);
      expect(await codeStored(exchanged)).toBe(true);
    });

    it('deletes refresh tokens expired by the cut, spent or not, and keeps unexpired ones', async () => {
      const tenant = await aTenant();
      const g = await grant(tenant);
      const cut = at(30 * DAY_MS);
      const expired = await refreshToken(g, { expiresAt: cut });
      const spentAndExpired = await refreshToken(g, { expiresAt: at(30 * DAY_MS - 1), spentAt: at(DAY_MS) });
      const live = await refreshToken(g, { expiresAt: at(30 * DAY_MS + 1) });
      const spentUnexpired = await refreshToken(g, {
        expiresAt: at(31 * DAY_MS),
        spentAt: at(2 * DAY_MS),
        replacedById: live.id,
      });

      expect(
        await deletingAll((tx, limit) => tx.oauthRefreshTokens.deleteExpiredBy(cut, limit)),
      ).toBeGreaterThanOrEqual(2);
      expect(await refreshTokenStored(expired)).toBe(false);
      expect(await refreshTokenStored(spentAndExpired)).toBe(false);
      expect(await refreshTokenStored(live)).toBe(true);
      expect(await refreshTokenStored(spentUnexpired)).toBe(true);
      expect(await grantStored(g)).toBe(true);
    });

    it('deletes the links of access tokens expired by the cut, and keeps the tokens and the unexpired links', async () => {
      const tenant = await aTenant();
      const g = await grant(tenant);
      const cut = at(2 * HOUR_MS);
      const expired = await accessToken(tenant, { expiresAt: cut, inGrant: g });
      const live = await accessToken(tenant, { expiresAt: at(2 * HOUR_MS + 1), inGrant: g });
      const linkedAt = (instant: string) =>
        uow().read((r) => r.oauthGrants.accessTokenIdsLiveAt(g.brandId, g.id, instant));
      expect(await linkedAt(T0)).toEqual([expired.id, live.id]);

      expect(
        await deletingAll((tx, limit) => tx.oauthGrants.deleteAccessTokenLinksExpiredBy(cut, limit)),
      ).toBeGreaterThanOrEqual(1);
      // Asked as of before either expired: only the unexpired link is left.
      expect(await linkedAt(T0)).toEqual([live.id]);
      expect(await accessTokenStored(expired)).toBe(true);
    });

    it('deletes a grant with nothing live in it, with its codes and refresh tokens, and keeps every grant with anything live', async () => {
      const tenant = await aTenant();
      const now = at(40 * DAY_MS);
      const after = (ms: number) => at(40 * DAY_MS + ms);

      const ended = await grant(tenant);
      const endedCode = await code(tenant, { expiresAt: at(-HOUR_MS), usedAt: at(-2 * HOUR_MS), grantId: ended.id });
      const endedSpent = await refreshToken(ended, { expiresAt: now, spentAt: at(DAY_MS), replacedById: 999_999 });
      const endedRevoked = await refreshToken(ended, { expiresAt: after(DAY_MS), revokedAt: at(2 * DAY_MS) });
      await accessToken(tenant, { expiresAt: now, inGrant: ended });

      const withLiveRefreshToken = await grant(tenant);
      await refreshToken(withLiveRefreshToken, { expiresAt: after(1) });
      // Spent and not yet replaced: a rotation between its two transactions.
      const midRotation = await grant(tenant);
      await refreshToken(midRotation, { expiresAt: after(DAY_MS), spentAt: now });
      const withLiveAccessToken = await grant(tenant);
      await accessToken(tenant, { expiresAt: after(1), inGrant: withLiveAccessToken });
      // Revoked, but an access token revoked with it has not expired: it goes once that has.
      const revokedRecently = await grant(tenant, at(40 * DAY_MS - HOUR_MS));
      await refreshToken(revokedRecently, { expiresAt: after(DAY_MS), revokedAt: at(40 * DAY_MS - HOUR_MS) });
      await accessToken(tenant, {
        expiresAt: after(1),
        revokedAt: at(40 * DAY_MS - HOUR_MS),
        inGrant: revokedRecently,
      });
      const revokedLongAgo = await grant(tenant, at(DAY_MS));

      expect(await deletingAll((tx, limit) => tx.oauthGrants.deleteEnded(now, limit))).toBeGreaterThanOrEqual(2);
      expect(await grantStored(ended)).toBe(false);
      expect(await codeStored(endedCode)).toBe(false);
      expect(await refreshTokenStored(endedSpent)).toBe(false);
      expect(await refreshTokenStored(endedRevoked)).toBe(false);
      expect(await grantStored(revokedLongAgo)).toBe(false);
      for (const kept of [withLiveRefreshToken, midRotation, withLiveAccessToken, revokedRecently])
        expect(await grantStored(kept)).toBe(true);

      expect(await deletingAll((tx, limit) => tx.oauthGrants.deleteEnded(after(1), limit))).toBeGreaterThanOrEqual(2);
      expect(await grantStored(revokedRecently)).toBe(false);
      expect(await grantStored(withLiveAccessToken)).toBe(false);
      expect(await grantStored(withLiveRefreshToken)).toBe(false);
      expect(await grantStored(midRotation)).toBe(true);
    });

    it('deletes access tokens that expired or were revoked before the cut, and keeps those that ended since', async () => {
      const tenant = await aTenant();
      const cut = at(60 * DAY_MS);
      const expiredBefore = await accessToken(tenant, { expiresAt: at(60 * DAY_MS - 1) });
      const revokedBefore = await accessToken(tenant, { expiresAt: at(365 * DAY_MS), revokedAt: at(60 * DAY_MS - 1) });
      const expiredAtTheCut = await accessToken(tenant, { expiresAt: cut });
      const revokedAtTheCut = await accessToken(tenant, { expiresAt: at(365 * DAY_MS), revokedAt: cut });
      const live = await accessToken(tenant, { expiresAt: at(365 * DAY_MS) });

      expect(await deletingAll((tx, limit) => tx.accessTokens.deleteEndedBefore(cut, limit))).toBeGreaterThanOrEqual(2);
      expect(await accessTokenStored(expiredBefore)).toBe(false);
      expect(await accessTokenStored(revokedBefore)).toBe(false);
      for (const kept of [expiredAtTheCut, revokedAtTheCut, live]) expect(await accessTokenStored(kept)).toBe(true);
      // The console's list of the user's tokens shows what is left.
      const listed = await uow().read((r) => r.accessTokens.listForUser(tenant.user.brandId, tenant.user.id));
      expect(listed.map((t) => t.id)).toEqual([live.id, revokedAtTheCut.id, expiredAtTheCut.id]);
    });

    it('deletes closed log-in throttle windows and keeps open ones counting', async () => {
      const nowMs = Date.parse(at(70 * DAY_MS));
      const windowMs = 15 * 60 * 1000;
      const closing = `login:account:closing-${Date.now()}@north.example`;
      const open = `login:account:open-${Date.now()}@north.example`;
      await uow().run((tx) => tx.loginAttempts.count(closing, windowMs, nowMs - windowMs));
      await uow().run((tx) => tx.loginAttempts.count(open, windowMs, nowMs - windowMs + 1));

      expect(
        await deletingAll((tx, limit) => tx.loginAttempts.deleteClosedWindows(nowMs, limit)),
      ).toBeGreaterThanOrEqual(1);
      // Counted as of an instant inside each window: a kept window goes on counting, a deleted
      // one starts again from one.
      const closingNext = await uow().run((tx) => tx.loginAttempts.count(closing, windowMs, nowMs - 1));
      expect(closingNext).toEqual({ attempts: 1, resetAtMs: nowMs - 1 + windowMs });
      const openNext = await uow().run((tx) => tx.loginAttempts.count(open, windowMs, nowMs));
      expect(openNext).toEqual({ attempts: 2, resetAtMs: nowMs + 1 });
    });

    it('deletes requests recorded before the cut, and keeps the later ones', async () => {
      const tenant = await aTenant();
      const cut = at(80 * DAY_MS);
      const entry = (createdAt: string, path: string): RequestLogEntry => ({
        brandId: tenant.user.brandId,
        userId: tenant.user.id,
        appId: tenant.app.id,
        tokenId: 1,
        method: 'GET',
        path,
        route: null,
        status: 200,
        durationMs: 3,
        requestId: `req-${path}`,
        traceId: null,
        createdAt,
      });
      await uow().run((tx) =>
        tx.requestLogs.append([
          entry(at(80 * DAY_MS - 1), '/v10/old'),
          entry(cut, '/v10/at-the-cut'),
          entry(at(80 * DAY_MS + 1), '/v10/new'),
        ]),
      );

      expect(await deletingAll((tx, limit) => tx.requestLogs.deleteCreatedBefore(cut, limit))).toBeGreaterThanOrEqual(
        1,
      );
      const left = await uow().read((r) => r.requestLogs.listForUser(tenant.user.brandId, tenant.user.id, 10));
      expect(left.map((e) => e.path).sort()).toEqual(['/v10/at-the-cut', '/v10/new']);
    });
  });
}
