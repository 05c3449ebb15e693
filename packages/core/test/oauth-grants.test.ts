import {
  ALL_SCOPES,
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
  issueAuthorizationCode,
  issueGrantTokens,
  revokeOAuthToken,
  rotateRefreshToken,
  spendRefreshToken,
} from '../src';
import { FakeSecretHasher, InMemoryUnitOfWork } from '../src/testing';

const START = '2026-03-02T09:00:00.000Z';
const REDIRECT_URI = 'https://erp.north.example/oauth/callback';
/** RFC 7636 appendix B: the S256 challenge of its example verifier. */
const CODE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const hasher = new FakeSecretHasher();
  const deps = { uow, clock, hasher };
  const brand = await createBrand(deps, { name: 'North Knits', currency: 'EUR' });
  const user = await createUser(deps, { brandId: brand.id, email: 'anna@north.example', name: 'Anna' });
  const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'ERP', redirectUris: [REDIRECT_URI] });
  const { app: shop } = await createApiApp(deps, { brandId: brand.id, name: 'Shop', redirectUris: [REDIRECT_URI] });
  const verifier = createStoredTokenVerifier({ ...deps, cachedTokens: 0 });
  const client = { brandId: brand.id, appId: app.id };

  const codeFor = (overrides: { scopes?: string[]; userId?: number; appId?: number } = {}) =>
    issueAuthorizationCode(deps, {
      brandId: user.brandId,
      userId: user.id,
      appId: app.id,
      redirectUri: REDIRECT_URI,
      codeChallenge: CODE_CHALLENGE,
      codeChallengeMethod: 'S256',
      ...overrides,
    });

  /** The authorization_code grant as the token endpoint runs it: find, consume, issue. */
  async function exchange(scopes?: string[]): Promise<GrantTokens> {
    const { code } = await codeFor({ scopes });
    const found = await findAuthorizationCode(deps, { ...client, code });
    await consumeAuthorizationCode(deps, { brandId: brand.id, authorizationCodeId: found!.id });
    return issueGrantTokens(deps, { ...client, authorizationCodeId: found!.id });
  }

  /** The refresh_token grant as the token endpoint runs it: find, spend, rotate. */
  async function refresh(refreshToken: string, scopes?: string[]): Promise<GrantTokens> {
    const found = await findRefreshToken(deps, { ...client, refreshToken });
    await spendRefreshToken(deps, { brandId: brand.id, refreshTokenId: found!.refreshToken.id });
    return rotateRefreshToken(deps, { ...client, refreshTokenId: found!.refreshToken.id, scopes });
  }

  /** What the API's token check says of an access token: its scopes, or why it is refused. */
  const verify = (accessToken: string) =>
    verifier.verify({ accessToken, appKey, requireAppKey: true }).then(
      (principal) => principal.scopes,
      (error: DomainError) => error.message,
    );

  return { uow, clock, hasher, deps, brand, user, app, shop, client, codeFor, exchange, refresh, verify };
}

/** The DomainError `outcome` rejects with. */
async function errorOf(outcome: Promise<unknown>): Promise<DomainError> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('authorization codes', () => {
  it('issues a code for every scope unless told, bound to the redirect URI and the PKCE challenge, for 10 minutes', async () => {
    const { codeFor, hasher, brand, user, app } = await setUp();

    const { authorizationCode, code } = await codeFor();

    expect(authorizationCode).toMatchObject({
      brandId: brand.id,
      appId: app.id,
      userId: user.id,
      codeHash: hasher.hash(code),
      redirectUri: REDIRECT_URI,
      scopes: ALL_SCOPES,
      codeChallenge: CODE_CHALLENGE,
      codeChallengeMethod: 'S256',
      expiresAt: '2026-03-02T09:10:00.000Z',
      usedAt: null,
    });
  });

  it('refuses unknown or missing scopes, a malformed challenge and the plain method, naming each field', async () => {
    const { codeFor, deps, user, app } = await setUp();

    const refused = await errorOf(
      issueAuthorizationCode(deps, {
        brandId: user.brandId,
        userId: user.id,
        appId: app.id,
        redirectUri: REDIRECT_URI,
        scopes: ['orders:read', 'orders:delete'],
        codeChallenge: 'too-short',
        codeChallengeMethod: 'plain',
      }),
    );
    const empty = await errorOf(codeFor({ scopes: [] }));

    expect(refused.code).toBe('validation_failed');
    expect(refused.violations.map((v) => v.pointer)).toEqual([
      '/scopes/1',
      '/code_challenge',
      '/code_challenge_method',
    ]);
    expect(empty.violations).toEqual([{ pointer: '/scopes', detail: 'scopes must name at least one scope' }]);
  });

  it('refuses a redirect URI the app did not register, even one that differs by a trailing slash', async () => {
    const { deps, user, app } = await setUp();

    const refused = await errorOf(
      issueAuthorizationCode(deps, {
        brandId: user.brandId,
        userId: user.id,
        appId: app.id,
        redirectUri: `${REDIRECT_URI}/`,
        codeChallenge: CODE_CHALLENGE,
        codeChallengeMethod: 'S256',
      }),
    );

    expect(refused.violations).toEqual([
      { pointer: '/redirect_uri', detail: 'redirect_uri is not a redirect URI registered for this app' },
    ]);
  });

  it('treats an app of another brand, or an unknown user, as missing', async () => {
    const { codeFor, deps } = await setUp();
    const other = await createBrand(deps, { name: 'South Socks', currency: 'EUR' });
    const { app: theirs } = await createApiApp(deps, { brandId: other.id, name: 'ERP', redirectUris: [REDIRECT_URI] });

    expect((await errorOf(codeFor({ appId: theirs.id }))).code).toBe('not_found');
    expect((await errorOf(codeFor({ userId: 987_654 }))).code).toBe('not_found');
  });

  it('finds a code for its own client until its 10 minutes are over, and then neither finds nor consumes it', async () => {
    const { codeFor, deps, clock, client, shop, brand } = await setUp();
    const { code, authorizationCode } = await codeFor();

    expect(await findAuthorizationCode(deps, { brandId: brand.id, appId: shop.id, code })).toBeNull();
    clock.advance(10 * MINUTE - 1);
    expect(await findAuthorizationCode(deps, { ...client, code })).toEqual(authorizationCode);
    clock.advance(1);
    expect(await findAuthorizationCode(deps, { ...client, code })).toBeNull();
    expect(await consumeAuthorizationCode(deps, { brandId: brand.id, authorizationCodeId: authorizationCode.id })).toBe(
      false,
    );
  });

  it('lets a code be consumed once', async () => {
    const { codeFor, deps, brand } = await setUp();
    const { authorizationCode } = await codeFor();
    const consume = () =>
      consumeAuthorizationCode(deps, { brandId: brand.id, authorizationCodeId: authorizationCode.id });

    expect([await consume(), await consume()]).toEqual([true, false]);
  });
});

describe('tokens from a code', () => {
  it('issues an access token the API accepts for an hour with the consented scopes, and a refresh token for 30 days', async () => {
    const { exchange, verify, clock } = await setUp();

    const issued = await exchange(['orders:read', 'customers:read']);

    expect(issued).toMatchObject({
      scopes: ['orders:read', 'customers:read'],
      expiresAt: '2026-03-02T10:00:00.000Z',
      refreshTokenExpiresAt: '2026-04-01T09:00:00.000Z',
    });
    expect(await verify(issued.accessToken)).toEqual(['orders:read', 'customers:read']);
    clock.advance(HOUR);
    expect(await verify(issued.accessToken)).toBe('The access token has expired');
  });

  it('lets the caller choose the lifetimes, and refuses ones that are not positive whole seconds', async () => {
    const { codeFor, deps, client, brand } = await setUp();
    const { code } = await codeFor();
    const found = await findAuthorizationCode(deps, { ...client, code });
    await consumeAuthorizationCode(deps, { brandId: brand.id, authorizationCodeId: found!.id });
    const exchange = (lifetimes: { accessTokenLifetimeSeconds?: number; refreshTokenLifetimeSeconds?: number }) =>
      issueGrantTokens(deps, { ...client, authorizationCodeId: found!.id, ...lifetimes });

    const refused = await errorOf(exchange({ accessTokenLifetimeSeconds: 0, refreshTokenLifetimeSeconds: 1.5 }));
    const issued = await exchange({ accessTokenLifetimeSeconds: 600, refreshTokenLifetimeSeconds: 86_400 });

    expect(refused.violations.map((v) => v.pointer)).toEqual([
      '/access_token_lifetime_seconds',
      '/refresh_token_lifetime_seconds',
    ]);
    expect(issued).toMatchObject({
      expiresAt: '2026-03-02T09:10:00.000Z',
      refreshTokenExpiresAt: '2026-03-03T09:00:00.000Z',
    });
  });

  it('issues nothing for a code that was not consumed, or that was exchanged already', async () => {
    const { codeFor, deps, client, brand } = await setUp();
    const { authorizationCode } = await codeFor();
    const exchange = () => issueGrantTokens(deps, { ...client, authorizationCodeId: authorizationCode.id });

    const unconsumed = await errorOf(exchange());
    await consumeAuthorizationCode(deps, { brandId: brand.id, authorizationCodeId: authorizationCode.id });
    await exchange();
    const twice = await errorOf(exchange());

    expect([unconsumed.code, twice.code]).toEqual(['invalid_state_transition', 'invalid_state_transition']);
    expect(twice.message).toBe(`authorization code ${authorizationCode.id} has been exchanged already`);
  });

  it("treats another app's or another brand's code as missing", async () => {
    const { codeFor, deps, brand, shop, client } = await setUp();
    const { authorizationCode } = await codeFor();
    await consumeAuthorizationCode(deps, { brandId: brand.id, authorizationCodeId: authorizationCode.id });

    for (const caller of [
      { brandId: brand.id, appId: shop.id },
      { brandId: brand.id + 1, appId: client.appId },
    ])
      expect(
        (await errorOf(issueGrantTokens(deps, { ...caller, authorizationCodeId: authorizationCode.id }))).code,
      ).toBe('not_found');
  });

  it("revokes the grant's access and refresh tokens when its code is presented again (RFC 6749 §4.1.2)", async () => {
    const { codeFor, deps, client, brand, verify, refresh } = await setUp();
    const { code } = await codeFor();
    const found = await findAuthorizationCode(deps, { ...client, code });
    await consumeAuthorizationCode(deps, { brandId: brand.id, authorizationCodeId: found!.id });
    const first = await issueGrantTokens(deps, { ...client, authorizationCodeId: found!.id });
    const refreshed = await refresh(first.refreshToken);

    expect(await findAuthorizationCode(deps, { ...client, code })).toBeNull();

    expect(await verify(first.accessToken)).toBe('The access token has been revoked');
    expect(await verify(refreshed.accessToken)).toBe('The access token has been revoked');
    expect(await findRefreshToken(deps, { ...client, refreshToken: refreshed.refreshToken })).toBeNull();
  });
});

describe('refresh with rotation', () => {
  it('rotates: the new pair works in the same grant, and the spent refresh token is spent once', async () => {
    const { exchange, refresh, deps, brand, client, verify } = await setUp();
    const first = await exchange(['orders:read']);

    const second = await refresh(first.refreshToken);

    expect(second.grant).toEqual(first.grant);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(await verify(second.accessToken)).toEqual(['orders:read']);
    expect(await spendRefreshToken(deps, { brandId: brand.id, refreshTokenId: first.refreshTokenId })).toBe(false);
    expect(await findRefreshToken(deps, { ...client, refreshToken: second.refreshToken })).toMatchObject({
      refreshToken: { id: second.refreshTokenId, spentAt: null },
      grant: first.grant,
    });
  });

  it('narrows the scopes of a refresh if asked, never widens them beyond the grant, and gives the grant back unasked', async () => {
    const { exchange, refresh, deps, client, verify } = await setUp();
    const first = await exchange(['orders:read', 'orders:write']);

    const narrowed = await refresh(first.refreshToken, ['orders:read']);
    const found = await findRefreshToken(deps, { ...client, refreshToken: narrowed.refreshToken });
    await spendRefreshToken(deps, { brandId: client.brandId, refreshTokenId: narrowed.refreshTokenId });
    const rotate = (scopes?: string[]) =>
      rotateRefreshToken(deps, { ...client, refreshTokenId: found!.refreshToken.id, scopes });
    const widened = await errorOf(rotate(['orders:read', 'finance:write']));
    const unknown = await errorOf(rotate(['orders:everything']));
    const whole = await rotate();

    expect(await verify(narrowed.accessToken)).toEqual(['orders:read']);
    expect(widened.violations).toEqual([
      {
        pointer: '/scopes/1',
        detail: 'scopes[1] "finance:write" was not granted; a refresh may narrow the scopes, never widen them',
      },
    ]);
    expect(unknown.violations.map((v) => v.pointer)).toEqual(['/scopes/0']);
    // RFC 6749 §6: scopes left out mean those the user granted, not those of the last refresh.
    expect(await verify(whole.accessToken)).toEqual(['orders:read', 'orders:write']);
  });

  it('does not refresh with a token that expired unused after 30 days', async () => {
    const { exchange, deps, client, clock } = await setUp();
    const { refreshToken, refreshTokenId } = await exchange();

    clock.advance(30 * DAY - 1);
    expect(await findRefreshToken(deps, { ...client, refreshToken })).not.toBeNull();
    clock.advance(1);
    expect(await findRefreshToken(deps, { ...client, refreshToken })).toBeNull();
    expect(await spendRefreshToken(deps, { brandId: client.brandId, refreshTokenId })).toBe(false);
  });

  it('revokes the whole grant when a spent refresh token is presented again', async () => {
    const { exchange, refresh, deps, client, verify } = await setUp();
    const first = await exchange();
    const second = await refresh(first.refreshToken);
    const third = await refresh(second.refreshToken);

    expect(await findRefreshToken(deps, { ...client, refreshToken: first.refreshToken })).toBeNull();

    for (const issued of [first, second, third])
      expect(await verify(issued.accessToken)).toBe('The access token has been revoked');
    expect(await findRefreshToken(deps, { ...client, refreshToken: third.refreshToken })).toBeNull();
  });

  it('rotates only a spent refresh token, once, for the app it was issued to', async () => {
    const { exchange, deps, client, shop } = await setUp();
    const { refreshTokenId } = await exchange();
    const rotate = (appId = client.appId) => rotateRefreshToken(deps, { ...client, appId, refreshTokenId });

    const unspent = await errorOf(rotate());
    await spendRefreshToken(deps, { brandId: client.brandId, refreshTokenId });
    const otherApp = await errorOf(rotate(shop.id));
    await rotate();
    const again = await errorOf(rotate());

    expect([unspent.code, otherApp.code, again.code]).toEqual([
      'invalid_state_transition',
      'not_found',
      'invalid_state_transition',
    ]);
    expect(again.message).toBe(`refresh token ${refreshTokenId} has been rotated already`);
  });

  it("does not find another app's refresh token, and leaves its grant alone", async () => {
    const { exchange, refresh, deps, brand, shop, verify } = await setUp();
    const first = await exchange();
    await refresh(first.refreshToken);

    // Even a spent token, which from its own app would revoke the grant.
    expect(
      await findRefreshToken(deps, { brandId: brand.id, appId: shop.id, refreshToken: first.refreshToken }),
    ).toBeNull();

    expect(await verify(first.accessToken)).toEqual(ALL_SCOPES);
  });
});

describe('revocation (RFC 7009)', () => {
  it('revokes an access token handed back by its app, and leaves the refresh token of its grant working', async () => {
    const { exchange, deps, client, verify } = await setUp();
    const issued = await exchange();

    await revokeOAuthToken(deps, { ...client, token: issued.accessToken });

    expect(await verify(issued.accessToken)).toBe('The access token has been revoked');
    expect(await findRefreshToken(deps, { ...client, refreshToken: issued.refreshToken })).not.toBeNull();
  });

  it('revokes the whole grant for a refresh token handed back by its app', async () => {
    const { exchange, refresh, deps, client, verify } = await setUp();
    const first = await exchange();
    const second = await refresh(first.refreshToken);

    await revokeOAuthToken(deps, { ...client, token: second.refreshToken });

    expect(await verify(first.accessToken)).toBe('The access token has been revoked');
    expect(await verify(second.accessToken)).toBe('The access token has been revoked');
    expect(await findRefreshToken(deps, { ...client, refreshToken: second.refreshToken })).toBeNull();
  });

  it('changes nothing for a token of another app or brand, or one never issued', async () => {
    const { exchange, deps, client, shop, verify } = await setUp();
    const issued = await exchange();

    for (const token of [issued.accessToken, issued.refreshToken]) {
      await revokeOAuthToken(deps, { brandId: client.brandId, appId: shop.id, token });
      await revokeOAuthToken(deps, { brandId: client.brandId + 1, appId: client.appId, token });
    }
    await revokeOAuthToken(deps, { ...client, token: 'never-issued' });

    expect(await verify(issued.accessToken)).toEqual(ALL_SCOPES);
    expect(await findRefreshToken(deps, { ...client, refreshToken: issued.refreshToken })).not.toBeNull();
  });
});
