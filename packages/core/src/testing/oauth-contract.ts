import { createApiApp } from '../identity/create-api-app';
import { createUser } from '../identity/create-user';
import { ApiApp, Brand, User } from '../identity/identity.entities';
import { consumeAuthorizationCode } from '../oauth/consume-authorization-code';
import { findAuthorizationCode } from '../oauth/find-authorization-code';
import { findRefreshToken } from '../oauth/find-refresh-token';
import { issueAuthorizationCode } from '../oauth/issue-authorization-code';
import { issueGrantTokens } from '../oauth/issue-grant-tokens';
import { revokeOAuthToken } from '../oauth/revoke-oauth-token';
import { rotateRefreshToken } from '../oauth/rotate-refresh-token';
import { spendRefreshToken } from '../oauth/spend-refresh-token';
import { issueTokensInGrant, revokeGrantWithTokens } from '../oauth/grant-tokens';
import { GrantTokens } from '../oauth/oauth.entities';
import { FixedClock } from '../shared/clock.ports';
import { DomainError } from '../shared/errors';
import { ContractStorage, hostTimers, insertBrand, SLOW, useContractStorage } from './contract-support';
import { FakeSecretHasher } from './fake-secret-hasher';

const T0 = '2026-09-01T08:00:00.000Z';
const REDIRECT_URI = 'https://erp.example.com/oauth/callback';
/** The challenge of RFC 7636's appendix B example (S256 of its verifier). */
const CODE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
/** How many callers race for one code or one refresh token in the parallel tests. */
const RACERS = 8;
/**
 * Where parallel transactions wait for each other, so that every one of them has read the row
 * before any changes it: without it the first may commit before the pool has connected the
 * second, and a racy check-then-write would pass. Everyone waits until all `count` arrived, or
 * until nobody arrived for `quietMs`: on Postgres they run at once and all arrive (connecting
 * each takes well under `quietMs`); adapters that run one transaction at a time (in memory, SQLite)
 * never see a second arrival, so there each waits `quietMs` and goes on.
 */
function meetingPoint(count: number, quietMs = 100): () => Promise<void> {
  let arrived = 0;
  const waiting: (() => void)[] = [];
  let timer: unknown;
  const releaseAll = () => {
    clearTimeout(timer);
    for (const release of waiting.splice(0)) release();
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      arrived += 1;
      clearTimeout(timer);
      if (arrived === count) releaseAll();
      else timer = setTimeout(releaseAll, quietMs);
    });
}

const { setTimeout, clearTimeout } = hostTimers;

/** The instant `seconds` after `at`. */
const plus = (at: string, seconds: number): string => new Date(Date.parse(at) + seconds * 1000).toISOString();

/**
 * The contract of OAuth grants on every storage adapter, through their use cases. What every
 * adapter promises:
 * - Codes, grants and refresh tokens read back exactly as written, found by the hash of the plain
 *   secret within their brand only; another brand's rows are never found or changed.
 * - A code is consumed, and a refresh token spent, exactly once, however many callers race for it
 *   (on Postgres in truly parallel transactions), and never after it expired.
 * - A replayed code or a spent refresh token presented again revokes its grant with every access
 *   token (the identity module's rows) and refresh token issued in it, in one transaction.
 *
 * @example
 * describeOAuthContract('in-memory OAuth', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeOAuthContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const clock = new FixedClock(T0);
    const hasher = new FakeSecretHasher();
    const deps = () => ({ uow: uow(), clock, hasher });

    /** A brand with a user and an app (`ERP`, its redirect URI registered), and a second app of the same brand. */
    async function aTenant(
      label = 'OAuth brand',
    ): Promise<{ brand: Brand; user: User; app: ApiApp; otherApp: ApiApp }> {
      const brand = await insertBrand(uow(), label, T0);
      const user = await createUser(deps(), { brandId: brand.id, email: 'anna@north.example', name: 'Anna' });
      const { app } = await createApiApp(deps(), { brandId: brand.id, name: 'ERP', redirectUris: [REDIRECT_URI] });
      const { app: otherApp } = await createApiApp(deps(), {
        brandId: brand.id,
        name: 'Shop',
        redirectUris: [REDIRECT_URI],
      });
      return { brand, user, app, otherApp };
    }

    const codeFor = (user: User, app: ApiApp, scopes?: string[]) =>
      issueAuthorizationCode(deps(), {
        brandId: user.brandId,
        userId: user.id,
        appId: app.id,
        redirectUri: REDIRECT_URI,
        scopes,
        codeChallenge: CODE_CHALLENGE,
        codeChallengeMethod: 'S256',
      });

    /** The authorization_code grant as the token endpoint runs it: find, consume, issue. */
    async function exchange(user: User, app: ApiApp, scopes?: string[]): Promise<GrantTokens> {
      const { code } = await codeFor(user, app, scopes);
      const found = await findAuthorizationCode(deps(), { brandId: app.brandId, appId: app.id, code });
      expect(await consumeAuthorizationCode(deps(), { brandId: app.brandId, authorizationCodeId: found!.id })).toBe(
        true,
      );
      return issueGrantTokens(deps(), { brandId: app.brandId, appId: app.id, authorizationCodeId: found!.id });
    }

    /** The refresh_token grant as the token endpoint runs it: find, spend, rotate. */
    async function refresh(app: ApiApp, refreshToken: string, scopes?: string[]): Promise<GrantTokens> {
      const found = await findRefreshToken(deps(), { brandId: app.brandId, appId: app.id, refreshToken });
      const refreshTokenId = found!.refreshToken.id;
      expect(await spendRefreshToken(deps(), { brandId: app.brandId, refreshTokenId })).toBe(true);
      return rotateRefreshToken(deps(), { brandId: app.brandId, appId: app.id, refreshTokenId, scopes });
    }

    const accessTokenRow = (plain: string) => uow().read((r) => r.accessTokens.findByHash(hasher.hash(plain)));
    const refreshTokenRow = (brandId: number, plain: string) =>
      uow().read((r) => r.oauthRefreshTokens.findByHash(brandId, hasher.hash(plain)));
    const grantRow = (brandId: number, id: number) => uow().read((r) => r.oauthGrants.findById(brandId, id));

    const errorOf = async (outcome: Promise<unknown>): Promise<DomainError> => {
      try {
        await outcome;
      } catch (error) {
        if (error instanceof DomainError) return error;
        throw error;
      }
      throw new Error('expected a DomainError');
    };

    it('stores a code as its hash, reads it back exactly, and finds it for its own client in its own brand only', async () => {
      const { brand, user, app, otherApp } = await aTenant();
      const other = await aTenant('Other brand');
      const { authorizationCode, code } = await codeFor(user, app, ['orders:read', 'orders:write']);

      expect(authorizationCode).toEqual({
        id: authorizationCode.id,
        brandId: brand.id,
        appId: app.id,
        userId: user.id,
        codeHash: hasher.hash(code),
        redirectUri: REDIRECT_URI,
        scopes: ['orders:read', 'orders:write'],
        codeChallenge: CODE_CHALLENGE,
        codeChallengeMethod: 'S256',
        expiresAt: plus(clock.now(), 10 * 60),
        usedAt: null,
        reusedAt: null,
        grantId: null,
        createdAt: clock.now(),
      });
      const stored = await uow().read((r) => r.oauthAuthorizationCodes.findByHash(brand.id, hasher.hash(code)));
      expect(stored).toStrictEqual(authorizationCode);
      expect(JSON.stringify(stored)).not.toContain(`"${code}"`);
      expect(await findAuthorizationCode(deps(), { brandId: brand.id, appId: app.id, code })).toStrictEqual(
        authorizationCode,
      );

      expect(await findAuthorizationCode(deps(), { brandId: brand.id, appId: otherApp.id, code })).toBeNull();
      expect(await findAuthorizationCode(deps(), { brandId: other.brand.id, appId: app.id, code })).toBeNull();
      expect(
        await uow().read((r) => r.oauthAuthorizationCodes.findById(other.brand.id, authorizationCode.id)),
      ).toBeNull();
      expect(
        await consumeAuthorizationCode(deps(), { brandId: other.brand.id, authorizationCodeId: authorizationCode.id }),
      ).toBe(false);
      // None of that used the code up: its own client still can.
      expect(
        await consumeAuthorizationCode(deps(), { brandId: brand.id, authorizationCodeId: authorizationCode.id }),
      ).toBe(true);
    });

    it('consumes a code once, and neither finds nor consumes one after its 10 minutes', async () => {
      const { brand, user, app } = await aTenant();
      const first = await codeFor(user, app);
      const consume = (id: number) => consumeAuthorizationCode(deps(), { brandId: brand.id, authorizationCodeId: id });

      expect(await consume(first.authorizationCode.id)).toBe(true);
      expect(await consume(first.authorizationCode.id)).toBe(false);
      expect(
        (await uow().read((r) => r.oauthAuthorizationCodes.findById(brand.id, first.authorizationCode.id)))?.usedAt,
      ).toBe(clock.now());

      const late = await codeFor(user, app);
      clock.advance(10 * 60_000);
      expect(await findAuthorizationCode(deps(), { brandId: brand.id, appId: app.id, code: late.code })).toBeNull();
      expect(await consume(late.authorizationCode.id)).toBe(false);
    });

    it(
      `lets exactly one of ${RACERS} parallel transactions consume a code, each having read it unused`,
      async () => {
        const { brand, user, app } = await aTenant();
        const { authorizationCode } = await codeFor(user, app);
        const meet = meetingPoint(RACERS);

        const outcomes = await Promise.all(
          Array.from({ length: RACERS }, () =>
            uow().run(async (tx) => {
              const seen = await tx.oauthAuthorizationCodes.findById(brand.id, authorizationCode.id);
              await meet();
              return seen?.usedAt === null && tx.oauthAuthorizationCodes.markUsed(brand.id, seen.id, clock.now());
            }),
          ),
        );

        expect(outcomes.filter(Boolean)).toHaveLength(1);
        expect(
          await consumeAuthorizationCode(deps(), { brandId: brand.id, authorizationCodeId: authorizationCode.id }),
        ).toBe(false);
      },
      SLOW,
    );

    it('issues a grant from a consumed code with an access token of the identity module and a refresh token, linked to it', async () => {
      const { brand, user, app } = await aTenant();
      const { code, authorizationCode } = await codeFor(user, app, ['catalog:read']);
      await consumeAuthorizationCode(deps(), { brandId: brand.id, authorizationCodeId: authorizationCode.id });

      const issued = await issueGrantTokens(deps(), {
        brandId: brand.id,
        appId: app.id,
        authorizationCodeId: authorizationCode.id,
      });

      expect(issued.grant).toEqual({
        id: issued.grant.id,
        brandId: brand.id,
        appId: app.id,
        userId: user.id,
        scopes: ['catalog:read'],
        createdAt: clock.now(),
        revokedAt: null,
      });
      expect(await grantRow(brand.id, issued.grant.id)).toStrictEqual(issued.grant);
      expect(await accessTokenRow(issued.accessToken)).toEqual({
        id: issued.accessTokenId,
        brandId: brand.id,
        userId: user.id,
        appId: app.id,
        tokenHash: hasher.hash(issued.accessToken),
        scopes: ['catalog:read'],
        expiresAt: plus(clock.now(), 60 * 60),
        revokedAt: null,
        createdAt: clock.now(),
      });
      expect(await refreshTokenRow(brand.id, issued.refreshToken)).toStrictEqual({
        id: issued.refreshTokenId,
        brandId: brand.id,
        grantId: issued.grant.id,
        tokenHash: hasher.hash(issued.refreshToken),
        expiresAt: plus(clock.now(), 30 * 24 * 60 * 60),
        spentAt: null,
        revokedAt: null,
        replacedById: null,
        createdAt: clock.now(),
      });
      expect(
        await uow().read((r) => r.oauthGrants.accessTokenIdsLiveAt(brand.id, issued.grant.id, clock.now())),
      ).toEqual([issued.accessTokenId]);
      expect(
        (await uow().read((r) => r.oauthAuthorizationCodes.findByHash(brand.id, hasher.hash(code))))?.grantId,
      ).toBe(issued.grant.id);
    });

    it('revokes the grant with every token issued in it when a used code is presented again', async () => {
      const { brand, user, app } = await aTenant();
      const { code, authorizationCode } = await codeFor(user, app);
      await consumeAuthorizationCode(deps(), { brandId: brand.id, authorizationCodeId: authorizationCode.id });
      const first = await issueGrantTokens(deps(), {
        brandId: brand.id,
        appId: app.id,
        authorizationCodeId: authorizationCode.id,
      });
      const second = await refresh(app, first.refreshToken);
      const revisionBefore = await uow().read((r) => r.accessTokens.credentialsRevision());
      clock.advance(1000);

      expect(await findAuthorizationCode(deps(), { brandId: brand.id, appId: app.id, code })).toBeNull();

      expect((await grantRow(brand.id, first.grant.id))?.revokedAt).toBe(clock.now());
      for (const issued of [first, second]) {
        expect((await accessTokenRow(issued.accessToken))?.revokedAt).toBe(clock.now());
        expect((await refreshTokenRow(brand.id, issued.refreshToken))?.revokedAt).toBe(clock.now());
      }
      expect(await uow().read((r) => r.accessTokens.credentialsRevision())).toBeGreaterThan(revisionBefore);
      expect(
        await findRefreshToken(deps(), { brandId: brand.id, appId: app.id, refreshToken: second.refreshToken }),
      ).toBeNull();
    });

    it('issues no tokens from a code presented again between its consumption and the exchange', async () => {
      const { brand, user, app } = await aTenant();
      const { code, authorizationCode } = await codeFor(user, app);
      await consumeAuthorizationCode(deps(), { brandId: brand.id, authorizationCodeId: authorizationCode.id });

      expect(await findAuthorizationCode(deps(), { brandId: brand.id, appId: app.id, code })).toBeNull();
      const refused = await errorOf(
        issueGrantTokens(deps(), { brandId: brand.id, appId: app.id, authorizationCodeId: authorizationCode.id }),
      );

      expect(refused.code).toBe('invalid_state_transition');
      expect(await uow().read((r) => r.oauthAuthorizationCodes.findById(brand.id, authorizationCode.id))).toMatchObject(
        {
          reusedAt: clock.now(),
          grantId: null,
        },
      );
    });

    it('rotates a spent refresh token into one successor in the same grant, and refuses a second one', async () => {
      const { brand, user, app } = await aTenant();
      const first = await exchange(user, app, ['orders:read', 'orders:write']);
      clock.advance(60_000);

      const second = await refresh(app, first.refreshToken, ['orders:read']);

      expect(second.grant.id).toBe(first.grant.id);
      expect(second.scopes).toEqual(['orders:read']);
      expect((await accessTokenRow(second.accessToken))?.scopes).toEqual(['orders:read']);
      expect(await refreshTokenRow(brand.id, first.refreshToken)).toMatchObject({
        spentAt: clock.now(),
        replacedById: second.refreshTokenId,
        revokedAt: null,
      });
      expect(
        await findRefreshToken(deps(), { brandId: brand.id, appId: app.id, refreshToken: second.refreshToken }),
      ).toEqual({
        refreshToken: await refreshTokenRow(brand.id, second.refreshToken),
        grant: first.grant,
      });
      expect(
        await uow().read((r) => r.oauthGrants.accessTokenIdsLiveAt(brand.id, first.grant.id, clock.now())),
      ).toEqual([first.accessTokenId, second.accessTokenId]);
      const again = await errorOf(
        rotateRefreshToken(deps(), { brandId: brand.id, appId: app.id, refreshTokenId: first.refreshTokenId }),
      );
      expect(again.code).toBe('invalid_state_transition');
    });

    it(
      `lets exactly one of ${RACERS} parallel transactions spend a refresh token, each having read it unspent`,
      async () => {
        const { brand, user, app } = await aTenant();
        const { refreshTokenId } = await exchange(user, app);
        const meet = meetingPoint(RACERS);

        const outcomes = await Promise.all(
          Array.from({ length: RACERS }, () =>
            uow().run(async (tx) => {
              const seen = await tx.oauthRefreshTokens.findById(brand.id, refreshTokenId);
              await meet();
              return seen?.spentAt === null && tx.oauthRefreshTokens.markSpent(brand.id, seen.id, clock.now());
            }),
          ),
        );

        expect(outcomes.filter(Boolean)).toHaveLength(1);
        expect(await spendRefreshToken(deps(), { brandId: brand.id, refreshTokenId })).toBe(false);
      },
      SLOW,
    );

    it(
      'leaves no live token in a grant revoked while tokens are being issued in it',
      async () => {
        const { brand, user, app } = await aTenant();
        const { grant } = await exchange(user, app);
        const bothStarted = meetingPoint(2);
        const revocationDone = meetingPoint(2);
        const lifetimes = { accessTokenSeconds: 3600, refreshTokenSeconds: 3600 };

        // The issuer waits before committing until the revocation is done, or could not finish:
        // a revocation that does not wait for the issuer would read the grant's tokens without
        // the new one, and leave it live.
        const [issuing] = await Promise.allSettled([
          uow().run(async (tx) => {
            const held = await tx.oauthGrants.holdLive(brand.id, grant.id);
            await bothStarted();
            const issued = held && (await issueTokensInGrant(tx, { clock, hasher }, held, held.scopes, lifetimes));
            await revocationDone();
            return issued;
          }),
          uow().run(async (tx) => {
            await bothStarted();
            await revokeGrantWithTokens(tx, grant, clock.now());
            await revocationDone();
          }),
        ]);

        expect(issuing.status).toBe('fulfilled');
        expect((await grantRow(brand.id, grant.id))?.revokedAt).toBe(clock.now());
        const linked = await uow().read((r) => r.oauthGrants.accessTokenIdsLiveAt(brand.id, grant.id, clock.now()));
        expect(linked.length).toBeGreaterThanOrEqual(1);
        for (const id of linked)
          expect((await uow().read((r) => r.accessTokens.findById(brand.id, id)))?.revokedAt).toBe(clock.now());
      },
      SLOW,
    );

    it('revokes the whole grant when a spent refresh token is presented again, and leaves other grants alone', async () => {
      const { brand, user, app } = await aTenant();
      const first = await exchange(user, app);
      const second = await refresh(app, first.refreshToken);
      const unrelated = await exchange(user, app);
      clock.advance(1000);

      expect(
        await findRefreshToken(deps(), { brandId: brand.id, appId: app.id, refreshToken: first.refreshToken }),
      ).toBeNull();

      expect((await grantRow(brand.id, first.grant.id))?.revokedAt).toBe(clock.now());
      for (const issued of [first, second])
        expect((await accessTokenRow(issued.accessToken))?.revokedAt).toBe(clock.now());
      expect((await refreshTokenRow(brand.id, second.refreshToken))?.revokedAt).toBe(clock.now());
      expect(
        await findRefreshToken(deps(), { brandId: brand.id, appId: app.id, refreshToken: second.refreshToken }),
      ).toBeNull();
      expect(await spendRefreshToken(deps(), { brandId: brand.id, refreshTokenId: second.refreshTokenId })).toBe(false);

      expect((await accessTokenRow(unrelated.accessToken))?.revokedAt).toBeNull();
      expect(
        await findRefreshToken(deps(), { brandId: brand.id, appId: app.id, refreshToken: unrelated.refreshToken }),
      ).not.toBeNull();
    });

    it('revokes a token handed back by the app it was issued to, and ignores it from another app or brand (RFC 7009)', async () => {
      const { brand, user, app, otherApp } = await aTenant();
      const other = await aTenant('Other brand');
      const viaAccess = await exchange(user, app);
      const viaRefresh = await exchange(user, app);
      const revoke = (brandId: number, appId: number, token: string) =>
        revokeOAuthToken(deps(), { brandId, appId, token });

      for (const token of [viaAccess.accessToken, viaRefresh.refreshToken]) {
        await revoke(brand.id, otherApp.id, token);
        await revoke(other.brand.id, other.app.id, token);
      }
      await revoke(brand.id, app.id, 'never-issued');
      expect((await accessTokenRow(viaAccess.accessToken))?.revokedAt).toBeNull();
      expect((await grantRow(brand.id, viaRefresh.grant.id))?.revokedAt).toBeNull();

      await revoke(brand.id, app.id, viaAccess.accessToken);
      expect((await accessTokenRow(viaAccess.accessToken))?.revokedAt).toBe(clock.now());
      // An access token goes alone; its grant's refresh token still works.
      expect(
        await findRefreshToken(deps(), { brandId: brand.id, appId: app.id, refreshToken: viaAccess.refreshToken }),
      ).not.toBeNull();

      await revoke(brand.id, app.id, viaRefresh.refreshToken);
      expect((await grantRow(brand.id, viaRefresh.grant.id))?.revokedAt).toBe(clock.now());
      expect((await accessTokenRow(viaRefresh.accessToken))?.revokedAt).toBe(clock.now());
      expect((await refreshTokenRow(brand.id, viaRefresh.refreshToken))?.revokedAt).toBe(clock.now());
    });

    it("never finds or changes another brand's grants and refresh tokens", async () => {
      const { brand, user, app } = await aTenant();
      const other = await aTenant('Other brand');
      const issued = await exchange(user, app);
      const theirs = other.brand.id;

      const seen = await uow().run(async (tx) => ({
        grant: await tx.oauthGrants.findById(theirs, issued.grant.id),
        held: await tx.oauthGrants.holdLive(theirs, issued.grant.id),
        revoked: await tx.oauthGrants.revoke(theirs, issued.grant.id, clock.now()),
        links: await tx.oauthGrants.accessTokenIdsLiveAt(theirs, issued.grant.id, clock.now()),
        byId: await tx.oauthRefreshTokens.findById(theirs, issued.refreshTokenId),
        byHash: await tx.oauthRefreshTokens.findByHash(theirs, hasher.hash(issued.refreshToken)),
        spent: await tx.oauthRefreshTokens.markSpent(theirs, issued.refreshTokenId, clock.now()),
      }));
      await uow().run((tx) => tx.oauthRefreshTokens.revokeForGrant(theirs, issued.grant.id, clock.now()));

      expect(seen).toEqual({
        grant: null,
        held: null,
        revoked: false,
        links: [],
        byId: null,
        byHash: null,
        spent: false,
      });
      expect(await grantRow(brand.id, issued.grant.id)).toStrictEqual(issued.grant);
      expect(await refreshTokenRow(brand.id, issued.refreshToken)).toMatchObject({ spentAt: null, revokedAt: null });
    });
  });
}
