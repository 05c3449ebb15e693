import {
  ALL_SCOPES,
  DomainError,
  FixedClock,
  createApiApp,
  createBrand,
  createStoredTokenVerifier,
  createUser,
  isDomainError,
  issueAccessToken,
  missingScopes,
  recordRequests,
  revokeAccessToken,
} from '../src';
import { FakeSecretHasher, InMemoryUnitOfWork } from '../src/testing';

const START = '2026-01-01T00:00:00.000Z';

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(START);
  const hasher = new FakeSecretHasher();
  const deps = { uow, clock, hasher };
  const brand = await createBrand(deps, { name: 'North Knits', currency: 'EUR' });
  const user = await createUser(deps, { brandId: brand.id, email: 'anna@north.example', name: 'Anna' });
  const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'ERP', internalCode: 'erp-link' });
  const verifier = createStoredTokenVerifier(deps);
  return { uow, clock, hasher, deps, brand, user, app, appKey, verifier };
}

/** The code of the DomainError `outcome` rejects with. */
async function errorCodeOf(outcome: Promise<unknown>): Promise<string> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a DomainError');
}

/** The unit of work, counting the reads of a token by its hash. */
function countingTokenReads(uow: InMemoryUnitOfWork) {
  let reads = 0;
  const counting: typeof uow = Object.create(uow);
  counting.read = (work) =>
    uow.read((repositories) =>
      work({
        ...repositories,
        accessTokens: {
          ...repositories.accessTokens,
          findByHash: (hash) => {
            reads += 1;
            return repositories.accessTokens.findByHash(hash);
          },
        },
      }),
    );
  return { counting, tokenReads: () => reads };
}
describe('brands, users and apps', () => {
  it('creates a brand with its base currency', async () => {
    const { brand, uow } = await setUp();

    expect(brand).toEqual({ id: brand.id, name: 'North Knits', currency: 'EUR', createdAt: START, updatedAt: START });
    expect(await uow.read((r) => r.brands.findById(brand.id))).toEqual(brand);
  });

  it('refuses a brand without a name or with a currency that is not ISO 4217', async () => {
    const { deps } = await setUp();

    await expect(createBrand(deps, { name: ' ', currency: 'euro' })).rejects.toMatchObject({
      code: 'validation_failed',
      violations: [{ pointer: '/name' }, { pointer: '/currency' }],
    });
  });

  it('refuses a user with a malformed e-mail, or of a brand that does not exist', async () => {
    const { deps, brand } = await setUp();

    await expect(createUser(deps, { brandId: brand.id, email: 'not-an-email', name: 'Bo' })).rejects.toMatchObject({
      code: 'validation_failed',
      violations: [{ pointer: '/email' }],
    });
    expect(await errorCodeOf(createUser(deps, { brandId: 987_654, email: 'bo@north.example', name: 'Bo' }))).toBe(
      'not_found',
    );
  });

  it('stores only the hash of a new app key', async () => {
    const { uow, hasher, app, appKey } = await setUp();

    const stored = await uow.read((r) => r.apiApps.findById(app.brandId, app.id));

    expect(stored).toMatchObject({ name: 'ERP', internalCode: 'erp-link', appKeyHash: hasher.hash(appKey) });
    expect(JSON.stringify(stored)).not.toContain(`"${appKey}"`);
  });

  it('refuses an app internal code outside a-z, 0-9, _ and -', async () => {
    const { deps, brand } = await setUp();

    await expect(
      createApiApp(deps, { brandId: brand.id, name: 'Portal', internalCode: 'Not OK!' }),
    ).rejects.toMatchObject({ violations: [{ pointer: '/internal_code' }] });
  });
});

describe('access tokens', () => {
  it('issues a token that verifies to its user, app, brand and scopes', async () => {
    const { deps, user, app, appKey, brand, verifier } = await setUp();

    const { token, accessToken } = await issueAccessToken(deps, {
      userId: user.id,
      appId: app.id,
      scopes: ['customers:read', 'customers:write', 'customers:read'],
    });
    const principal = await verifier.verify({ accessToken, appKey, requireAppKey: true });

    expect(principal).toEqual({
      brandId: brand.id,
      userId: user.id,
      appId: app.id,
      tokenId: token.id,
      scopes: ['customers:read', 'customers:write'],
      appInternalCode: 'erp-link',
    });
  });

  it('stores only the hash of the token and lets it live a year by default, with every scope', async () => {
    const { deps, uow, hasher, user, app } = await setUp();

    const { token, accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });

    expect(await uow.read((r) => r.accessTokens.findById(token.brandId, token.id))).toEqual({
      id: token.id,
      brandId: user.brandId,
      userId: user.id,
      appId: app.id,
      tokenHash: hasher.hash(accessToken),
      scopes: ALL_SCOPES,
      expiresAt: '2027-01-01T00:00:00.000Z',
      revokedAt: null,
      createdAt: START,
    });
  });

  it('verifies without an app key where the interface does not ask for one', async () => {
    const { deps, user, app, verifier } = await setUp();
    const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });

    await expect(verifier.verify({ accessToken, appKey: null, requireAppKey: false })).resolves.toMatchObject({
      userId: user.id,
    });
  });

  describe('verification refuses as unauthenticated', () => {
    it('a token with the key of another app', async () => {
      const { deps, brand, user, app, verifier } = await setUp();
      const { appKey: otherKey } = await createApiApp(deps, { brandId: brand.id, name: 'Webshop' });
      const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });

      expect(await errorCodeOf(verifier.verify({ accessToken, appKey: otherKey, requireAppKey: true }))).toBe(
        'unauthenticated',
      );
    });

    it('a token without the app key the interface requires', async () => {
      const { deps, user, app, verifier } = await setUp();
      const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });

      expect(await errorCodeOf(verifier.verify({ accessToken, appKey: null, requireAppKey: true }))).toBe(
        'unauthenticated',
      );
      expect(await errorCodeOf(verifier.verify({ accessToken, appKey: '', requireAppKey: true }))).toBe(
        'unauthenticated',
      );
    });

    it('a revoked token, from the very next request', async () => {
      const { deps, user, app, appKey, verifier } = await setUp();
      const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
      await verifier.verify({ accessToken, appKey, requireAppKey: true });

      await revokeAccessToken(deps, { accessToken });

      expect(await errorCodeOf(verifier.verify({ accessToken, appKey, requireAppKey: true }))).toBe('unauthenticated');
    });

    it('a revoked token, from the very next request of every verifier that had it cached (one per process)', async () => {
      const { deps, user, app, appKey, verifier } = await setUp();
      const otherProcess = createStoredTokenVerifier(deps);
      const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
      const { accessToken: untouched } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
      for (const each of [verifier, otherProcess]) {
        await each.verify({ accessToken, appKey, requireAppKey: true });
        await each.verify({ accessToken: untouched, appKey, requireAppKey: true });
      }

      await revokeAccessToken(deps, { accessToken });

      for (const each of [verifier, otherProcess]) {
        expect(await errorCodeOf(each.verify({ accessToken, appKey, requireAppKey: true }))).toBe('unauthenticated');
        await expect(each.verify({ accessToken: untouched, appKey, requireAppKey: true })).resolves.toMatchObject({
          userId: user.id,
        });
      }
    });

    it('an expired token, from the instant it expires', async () => {
      const { deps, clock, user, app, appKey, verifier } = await setUp();
      const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id, expiresInSeconds: 60 });
      clock.advance(59_999);
      await expect(verifier.verify({ accessToken, appKey, requireAppKey: true })).resolves.toMatchObject({
        userId: user.id,
      });

      clock.advance(1);

      expect(await errorCodeOf(verifier.verify({ accessToken, appKey, requireAppKey: true }))).toBe('unauthenticated');
    });

    it('a wrong app key, also once the token is cached', async () => {
      const { deps, user, app, appKey, verifier } = await setUp();
      const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
      await verifier.verify({ accessToken, appKey, requireAppKey: true });

      expect(await errorCodeOf(verifier.verify({ accessToken, appKey: `${appKey}x`, requireAppKey: true }))).toBe(
        'unauthenticated',
      );
    });

    it('an unknown or empty token', async () => {
      const { appKey, verifier } = await setUp();

      expect(await errorCodeOf(verifier.verify({ accessToken: 'never-issued', appKey, requireAppKey: true }))).toBe(
        'unauthenticated',
      );
      expect(await errorCodeOf(verifier.verify({ accessToken: '', appKey, requireAppKey: true }))).toBe(
        'unauthenticated',
      );
    });
  });

  it('reads a verified token and its app once while the credentials revision is unchanged', async () => {
    const { uow, clock, hasher, deps, user, app, appKey } = await setUp();
    const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
    const { counting, tokenReads } = countingTokenReads(uow);
    const verifier = createStoredTokenVerifier({ uow: counting, clock, hasher });

    for (let request = 0; request < 3; request += 1)
      await verifier.verify({ accessToken, appKey, requireAppKey: true });
    expect(tokenReads()).toBe(1);

    await expect(verifier.verify({ accessToken: 'never-issued', appKey, requireAppKey: true })).rejects.toThrow();
    await expect(verifier.verify({ accessToken: 'never-issued', appKey, requireAppKey: true })).rejects.toThrow();
    expect(tokenReads()).toBe(3);
  });

  it('hashes nothing for a cached token presented with the app key it was verified with', async () => {
    const { clock, hasher, deps, uow, user, app, appKey } = await setUp();
    const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
    const hashed: string[] = [];
    const counting: typeof hasher = Object.create(hasher);
    counting.hash = (secret) => {
      hashed.push(secret);
      return hasher.hash(secret);
    };
    const verifier = createStoredTokenVerifier({ uow, clock, hasher: counting });

    await verifier.verify({ accessToken, appKey, requireAppKey: true });
    expect(hashed).toEqual([accessToken, appKey]);

    hashed.length = 0;
    await verifier.verify({ accessToken, appKey, requireAppKey: true });
    await verifier.verify({ accessToken, appKey: null, requireAppKey: false });
    expect(hashed).toEqual([]);

    // Another key is hashed and refused, and does not displace the one verified.
    expect(
      await errorCodeOf(verifier.verify({ accessToken, appKey: `x${appKey.slice(1)}`, requireAppKey: true })),
    ).toBe('unauthenticated');
    expect(hashed).toEqual([`x${appKey.slice(1)}`]);
    hashed.length = 0;
    await expect(verifier.verify({ accessToken, appKey, requireAppKey: true })).resolves.toMatchObject({
      userId: user.id,
    });
    expect(hashed).toEqual([]);
  });

  it('reads the token on every request when it keeps no tokens', async () => {
    const { uow, clock, hasher, deps, user, app, appKey } = await setUp();
    const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
    const { counting, tokenReads } = countingTokenReads(uow);
    const verifier = createStoredTokenVerifier({ uow: counting, clock, hasher, cachedTokens: 0 });

    for (let request = 0; request < 3; request += 1)
      await verifier.verify({ accessToken, appKey, requireAppKey: true });
    expect(tokenReads()).toBe(3);
  });

  it('will not issue a token for an app of another brand, as if the app did not exist', async () => {
    const { deps, user } = await setUp();
    const other = await createBrand(deps, { name: 'Other', currency: 'EUR' });
    const { app: foreignApp } = await createApiApp(deps, { brandId: other.id, name: 'Foreign' });

    expect(await errorCodeOf(issueAccessToken(deps, { userId: user.id, appId: foreignApp.id }))).toBe('not_found');
  });

  it('will not issue a token for a user that does not exist', async () => {
    const { deps, app } = await setUp();

    expect(await errorCodeOf(issueAccessToken(deps, { userId: 987_654, appId: app.id }))).toBe('not_found');
  });

  it('refuses unknown scopes and lifetimes that are not a positive number of seconds', async () => {
    const { deps, user, app, uow } = await setUp();

    await expect(
      issueAccessToken(deps, {
        userId: user.id,
        appId: app.id,
        scopes: ['customers:read', 'customers:admin'],
        expiresInSeconds: 0,
      }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      violations: [{ pointer: '/scopes/1' }, { pointer: '/expires_in' }],
    });
    expect(await uow.read((r) => r.accessTokens.findByIdAnyBrand(1))).toBeNull();
  });

  it('revokes by id once; a second revocation reports the first instant', async () => {
    const { deps, clock, user, app, uow } = await setUp();
    const { token } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
    clock.advance(1_000);

    const first = await revokeAccessToken(deps, { tokenId: token.id });
    clock.advance(1_000);
    const second = await revokeAccessToken(deps, { tokenId: token.id });

    expect(first).toEqual({ tokenId: token.id, revokedAt: '2026-01-01T00:00:01.000Z', alreadyRevoked: false });
    expect(second).toEqual({ tokenId: token.id, revokedAt: '2026-01-01T00:00:01.000Z', alreadyRevoked: true });
    expect((await uow.read((r) => r.accessTokens.findById(token.brandId, token.id)))!.revokedAt).toBe(
      '2026-01-01T00:00:01.000Z',
    );
  });

  it('cannot revoke a token that does not exist', async () => {
    const { deps } = await setUp();

    expect(await errorCodeOf(revokeAccessToken(deps, { tokenId: 987_654 }))).toBe('not_found');
    expect(await errorCodeOf(revokeAccessToken(deps, { accessToken: 'never-issued' }))).toBe('not_found');
    expect(await errorCodeOf(revokeAccessToken(deps, {}))).toBe('not_found');
  });
});

describe('scopes', () => {
  it('lists the scopes a token lacks; a write scope does not imply read', () => {
    expect(missingScopes(['customers:write', 'orders:read'], ['customers:read', 'orders:read'])).toEqual([
      'customers:read',
    ]);
    expect(missingScopes(ALL_SCOPES, ['settings:write'])).toEqual([]);
  });
});

describe('request log', () => {
  it("records requests on the token's user, newest first", async () => {
    const { deps, uow, brand, user, app } = await setUp();
    const { token } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
    const entry = (path: string, createdAt: string) => ({
      brandId: brand.id,
      userId: user.id,
      appId: app.id,
      tokenId: token.id,
      method: 'GET',
      path,
      route: null,
      status: 200,
      durationMs: 3,
      requestId: path,
      traceId: null,
      createdAt,
    });

    await recordRequests({ uow }, [entry('/a', '2026-01-01T00:00:01.000Z'), entry('/b', '2026-01-01T00:00:02.000Z')]);
    await recordRequests({ uow }, []);

    expect((await uow.read((r) => r.requestLogs.listForUser(brand.id, user.id, 10))).map((e) => e.path)).toEqual([
      '/b',
      '/a',
    ]);
  });
});

it('DomainError keeps its code apart from any HTTP status', () => {
  const error = DomainError.notFound('customer', 7);

  expect(error).toMatchObject({
    code: 'not_found',
    message: 'customer 7 was not found',
    data: { resource: 'customer', id: 7 },
  });
});
