import {
  DomainError,
  FixedClock,
  GrantTokens,
  consumeAuthorizationCode,
  createApiApp,
  createBrand,
  createStoredTokenVerifier,
  createUser,
  findAuthorizationCode,
  findRefreshToken,
  isDomainError,
  issueAccessToken,
  issueAuthorizationCode,
  issueGrantTokens,
  logIn,
  pruneRequestLog,
  recordRequests,
  resolveConsoleSession,
  revokeAccessToken,
  rotateRefreshToken,
  spendRefreshToken,
  startConsoleSession,
  sweepExpiredCredentials,
  type UnitOfWork,
} from '../src';
import { FakePasswordHasher, FakeSecretHasher, InMemoryUnitOfWork } from '../src/testing';

const START = '2026-03-02T09:00:00.000Z';
const REDIRECT_URI = 'https://erp.north.example/oauth/callback';
/** RFC 7636 appendix B: the S256 challenge of its example verifier. */
const CODE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PASSWORD = 'correct horse battery staple';

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const hasher = new FakeSecretHasher();
  const passwordHasher = new FakePasswordHasher();
  const deps = { uow, clock, hasher, passwordHasher };
  const brand = await createBrand(deps, { name: 'North Knits', currency: 'EUR' });
  const user = await createUser(deps, {
    brandId: brand.id,
    email: 'anna@north.example',
    name: 'Anna',
    password: PASSWORD,
  });
  const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'ERP', redirectUris: [REDIRECT_URI] });
  const client = { brandId: brand.id, appId: app.id };
  const verifier = createStoredTokenVerifier({ ...deps, cachedTokens: 0 });

  const sweep = (input: { requestLogRetentionDays?: number; batchRows?: number } = {}) =>
    sweepExpiredCredentials(deps, input);

  const codeFor = () =>
    issueAuthorizationCode(deps, {
      brandId: user.brandId,
      userId: user.id,
      appId: app.id,
      redirectUri: REDIRECT_URI,
      codeChallenge: CODE_CHALLENGE,
      codeChallengeMethod: 'S256',
    });

  /** The authorization_code grant as the token endpoint runs it: find, consume, issue. */
  async function exchange(code: string): Promise<GrantTokens> {
    const found = await findAuthorizationCode(deps, { ...client, code });
    await consumeAuthorizationCode(deps, { brandId: brand.id, authorizationCodeId: found!.id });
    return issueGrantTokens(deps, { ...client, authorizationCodeId: found!.id });
  }

  /** The refresh_token grant as the token endpoint runs it: find, spend, rotate; null when refused. */
  async function refresh(refreshToken: string): Promise<GrantTokens | null> {
    const found = await findRefreshToken(deps, { ...client, refreshToken });
    if (!found) return null;
    await spendRefreshToken(deps, { brandId: brand.id, refreshTokenId: found.refreshToken.id });
    return rotateRefreshToken(deps, { ...client, refreshTokenId: found.refreshToken.id });
  }

  /** Whether the API's token check accepts the access token. */
  const accepted = (accessToken: string) =>
    verifier.verify({ accessToken, appKey, requireAppKey: true }).then(
      () => true,
      (error: unknown) => {
        if (isDomainError(error)) return false;
        throw error;
      },
    );

  const grantStored = (grantId: number) => uow.read((r) => r.oauthGrants.findById(brand.id, grantId));
  const tokensListed = () => uow.read((r) => r.accessTokens.listForUser(brand.id, user.id));

  return {
    uow,
    clock,
    deps,
    brand,
    user,
    app,
    client,
    sweep,
    codeFor,
    exchange,
    refresh,
    accepted,
    grantStored,
    tokensListed,
  };
}

describe('sweeping expired credentials', () => {
  it('deletes a console session 12 hours after its last request, and keeps one in use', async () => {
    const { deps, clock, user, uow, sweep } = await setUp();
    const idle = await startConsoleSession(deps, { brandId: user.brandId, userId: user.id });
    clock.advance(11 * HOUR);
    const busy = await startConsoleSession(deps, { brandId: user.brandId, userId: user.id });
    clock.advance(HOUR);

    expect((await sweep()).consoleSessions).toBe(1);
    // Gone from storage, not just refused when next presented.
    expect(await uow.read((r) => r.consoleSessions.findByHash(user.brandId, idle.session.secretHash))).toBeNull();
    expect(await resolveConsoleSession(deps, { cookieValue: busy.cookieValue })).not.toBeNull();
  });

  it('deletes a busy console session 7 days after it began', async () => {
    const { deps, clock, user, sweep } = await setUp();
    const { cookieValue } = await startConsoleSession(deps, { brandId: user.brandId, userId: user.id });
    for (let hours = 0; hours < 7 * 24 - 10; hours += 10) {
      clock.advance(10 * HOUR);
      expect(await resolveConsoleSession(deps, { cookieValue })).not.toBeNull();
      expect((await sweep()).consoleSessions).toBe(0);
    }
    clock.advance(10 * HOUR);
    expect((await sweep()).consoleSessions).toBe(1);
  });

  it('keeps an unused code for its 10 minutes and 10 more, then deletes it', async () => {
    const { clock, uow, brand, sweep, codeFor } = await setUp();
    const { authorizationCode } = await codeFor();
    clock.advance(20 * MINUTE - 1);
    expect((await sweep()).authorizationCodes).toBe(0);
    expect(await uow.read((r) => r.oauthAuthorizationCodes.findById(brand.id, authorizationCode.id))).not.toBeNull();
    clock.advance(1);
    expect((await sweep()).authorizationCodes).toBe(1);
    expect(await uow.read((r) => r.oauthAuthorizationCodes.findById(brand.id, authorizationCode.id))).toBeNull();
  });

  it('keeps an exchanged code with its grant, so presenting it again still revokes the grant', async () => {
    const { deps, clock, client, sweep, codeFor, exchange, accepted } = await setUp();
    const { code } = await codeFor();
    const tokens = await exchange(code);
    clock.advance(30 * MINUTE);
    expect((await sweep()).authorizationCodes).toBe(0);

    expect(await findAuthorizationCode(deps, { ...client, code })).toBeNull();
    expect(await accepted(tokens.accessToken)).toBe(false);
  });

  it('keeps a spent refresh token until it expires, so a replay within its 30 days still revokes the grant', async () => {
    const { clock, sweep, codeFor, exchange, refresh } = await setUp();
    const first = await exchange((await codeFor()).code);
    clock.advance(DAY);
    const second = (await refresh(first.refreshToken))!;
    clock.advance(29 * DAY - 1);
    const swept = await sweep();
    expect(swept).toMatchObject({ refreshTokens: 0, oauthGrants: 0 });

    expect(await refresh(first.refreshToken)).toBeNull();
    // The replay revoked the grant: its latest refresh token, unexpired, is refused too.
    expect(await refresh(second.refreshToken)).toBeNull();
  });

  it('deletes expired refresh tokens of a grant in use, and keeps the grant and its live token', async () => {
    const { clock, sweep, codeFor, exchange, refresh, grantStored } = await setUp();
    let tokens = await exchange((await codeFor()).code);
    // Refreshed every 10 days: each spent token expires 30 days after it was issued.
    for (let day = 10; day <= 60; day += 10) {
      clock.advance(10 * DAY);
      tokens = (await refresh(tokens.refreshToken))!;
    }
    const swept = await sweep();
    // Issued on days 0, 10, 20 and 30 (expired by day 60), and each refresh's links (an hour each).
    expect(swept).toMatchObject({ refreshTokens: 4, accessTokenLinks: 6, oauthGrants: 0 });
    expect(await grantStored(tokens.grant.id)).not.toBeNull();
    clock.advance(HOUR);
    expect(await refresh(tokens.refreshToken)).not.toBeNull();
  });

  it('deletes a grant once nothing in it is live, and its access token 30 days after it expired', async () => {
    const { clock, sweep, codeFor, exchange, grantStored, tokensListed } = await setUp();
    const tokens = await exchange((await codeFor()).code);
    clock.advance(30 * DAY);
    expect(await sweep()).toMatchObject({ refreshTokens: 1, accessTokenLinks: 1, oauthGrants: 1, accessTokens: 0 });
    expect(await grantStored(tokens.grant.id)).toBeNull();
    // The console still lists the access token (expired) for a while.
    expect((await tokensListed()).map((t) => t.id)).toEqual([tokens.accessTokenId]);

    clock.advance(HOUR + 1);
    expect((await sweep()).accessTokens).toBe(1);
    expect(await tokensListed()).toEqual([]);
  });

  it('deletes a revoked personal access token 30 days after its revocation, or as long after as the request log keeps', async () => {
    const { deps, clock, user, app, sweep, tokensListed } = await setUp();
    const kept = await issueAccessToken(deps, { userId: user.id, appId: app.id });
    const revoked = await issueAccessToken(deps, { userId: user.id, appId: app.id });
    await revokeAccessToken(deps, { tokenId: revoked.token.id });
    clock.advance(30 * DAY + 1);

    expect((await sweep({ requestLogRetentionDays: 60 })).accessTokens).toBe(0);
    expect((await tokensListed()).map((t) => t.id)).toEqual([revoked.token.id, kept.token.id]);
    expect((await sweep()).accessTokens).toBe(1);
    expect((await tokensListed()).map((t) => t.id)).toEqual([kept.token.id]);
  });

  it('deletes closed log-in throttle windows, and keeps an open one counting', async () => {
    const { deps, clock, sweep } = await setUp();
    const failed = (clientAddress: string) =>
      logIn(deps, { email: 'anna@north.example', password: 'not the password at all', clientAddress }).catch(
        (error: DomainError) => error.code,
      );
    expect(await failed('192.0.2.1')).toBe('invalid_credentials');
    clock.advance(15 * MINUTE);
    // This one opens new windows for the account and the second address.
    expect(await failed('192.0.2.2')).toBe('invalid_credentials');
    expect((await sweep()).loginWindows).toBe(1);

    // The account's open window holds its failure: four more are allowed, the fifth is refused.
    for (let i = 0; i < 4; i++) expect(await failed('192.0.2.2')).toBe('invalid_credentials');
    expect(await failed('192.0.2.2')).toBe('too_many_login_attempts');
  });

  it('works through a backlog in batches, each in its own transaction, until none is left', async () => {
    const { deps, clock, user, uow, sweep } = await setUp();
    const sessions = [];
    for (let i = 0; i < 5; i++)
      sessions.push(await startConsoleSession(deps, { brandId: user.brandId, userId: user.id }));
    clock.advance(8 * DAY);

    let transactions = 0;
    const counting: UnitOfWork = {
      run: (work) => {
        transactions += 1;
        return uow.run(work);
      },
      read: (work) => uow.read(work),
    };
    const swept = await sweepExpiredCredentials({ uow: counting, clock }, { batchRows: 2 });
    expect(swept.consoleSessions).toBe(5);
    // Three batches of sessions (2, 2, 1) and one empty batch for every other kind.
    expect(transactions).toBe(3 + 6);
    for (const { session } of sessions)
      expect(await uow.read((r) => r.consoleSessions.findByHash(session.brandId, session.secretHash))).toBeNull();
    expect((await sweep()).consoleSessions).toBe(0);
  });
});

describe('pruning the request log', () => {
  it('deletes the requests older than the retention, in batches, and keeps the newer ones', async () => {
    const { uow, clock, brand, user, app } = await setUp();
    const entry = (daysAgo: number, path: string) => ({
      brandId: brand.id,
      userId: user.id,
      appId: app.id,
      tokenId: 1,
      method: 'GET',
      path,
      route: null,
      status: 200,
      durationMs: 4,
      requestId: `req-${path}`,
      traceId: null,
      createdAt: new Date(Date.parse(START) - daysAgo * DAY).toISOString(),
    });
    await recordRequests({ uow }, [entry(45, '/v10/a'), entry(31, '/v10/b'), entry(30, '/v10/c'), entry(1, '/v10/d')]);

    expect(await pruneRequestLog({ uow, clock }, { batchRows: 1 })).toBe(2);
    const left = await uow.read((r) => r.requestLogs.listForUser(brand.id, user.id, 10));
    expect(left.map((e) => e.path)).toEqual(['/v10/d', '/v10/c']);

    expect(await pruneRequestLog({ uow, clock }, { retentionDays: 7 })).toBe(1);
    expect((await uow.read((r) => r.requestLogs.listForUser(brand.id, user.id, 10))).map((e) => e.path)).toEqual([
      '/v10/d',
    ]);
  });
});
