import {
  FixedClock,
  authenticateOAuthClient,
  createApiApp,
  createBrand,
  createStoredTokenVerifier,
  createUser,
  isDomainError,
  issueAccessToken,
  rotateApiAppKey,
} from '../src';
import { FakeSecretHasher, InMemoryUnitOfWork } from '../src/testing';

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const deps = { uow, clock: new FixedClock('2026-03-02T09:00:00.000Z'), hasher: new FakeSecretHasher() };
  const brand = await createBrand(deps, { name: 'North Knits', currency: 'EUR' });
  const other = await createBrand(deps, { name: 'South Socks', currency: 'EUR' });
  const user = await createUser(deps, { brandId: brand.id, email: 'anna@north.example', name: 'Anna' });
  const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'ERP' });
  const { accessToken } = await issueAccessToken(deps, { userId: user.id, appId: app.id });
  return { uow, deps, brand, other, user, app, appKey, accessToken };
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

describe('rotating an app key', () => {
  it('refuses the old key from the next request of every verifier that had it cached (one per process); the new key works with the same token', async () => {
    const { deps, brand, app, appKey, accessToken } = await setUp();
    const processes = [createStoredTokenVerifier(deps), createStoredTokenVerifier(deps)];
    for (const verifier of processes) await verifier.verify({ accessToken, appKey, requireAppKey: true });

    const rotated = await rotateApiAppKey(deps, { brandId: brand.id, appId: app.id });

    expect(rotated.appKey).not.toBe(appKey);
    expect(rotated.app).toStrictEqual({ ...app, appKeyHash: deps.hasher.hash(rotated.appKey) });
    for (const verifier of processes) {
      expect(await errorCodeOf(verifier.verify({ accessToken, appKey, requireAppKey: true }))).toBe('unauthenticated');
      await expect(
        verifier.verify({ accessToken, appKey: rotated.appKey, requireAppKey: true }),
      ).resolves.toMatchObject({ appId: app.id });
    }
  });

  it('replaces the OAuth client secret: the old key no longer authenticates the client, the new one does', async () => {
    const { deps, brand, app, appKey } = await setUp();

    const { appKey: newKey } = await rotateApiAppKey(deps, { brandId: brand.id, appId: app.id });

    expect(await errorCodeOf(authenticateOAuthClient(deps, { clientId: app.clientId, clientSecret: appKey }))).toBe(
      'invalid_credentials',
    );
    await expect(
      authenticateOAuthClient(deps, { clientId: app.clientId, clientSecret: newKey }),
    ).resolves.toMatchObject({ id: app.id });
  });

  it("treats another brand's app as missing and leaves its key working", async () => {
    const { deps, other, app, appKey, accessToken } = await setUp();
    const verifier = createStoredTokenVerifier(deps);

    expect(await errorCodeOf(rotateApiAppKey(deps, { brandId: other.id, appId: app.id }))).toBe('not_found');

    await expect(verifier.verify({ accessToken, appKey, requireAppKey: true })).resolves.toMatchObject({
      appId: app.id,
    });
    expect(await deps.uow.read((r) => r.apiApps.findById(app.brandId, app.id))).toStrictEqual(app);
  });

  it("rotates any brand's app when no brand is named (the operator's CLI), and refuses an unknown app", async () => {
    const { deps, app, appKey } = await setUp();

    const { app: rotated, appKey: newKey } = await rotateApiAppKey(deps, { appId: app.id });

    expect(rotated.id).toBe(app.id);
    expect(newKey).not.toBe(appKey);
    expect(await errorCodeOf(rotateApiAppKey(deps, { appId: 987_654_321 }))).toBe('not_found');
  });
});
