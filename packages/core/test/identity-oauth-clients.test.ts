import {
  DomainError,
  FixedClock,
  MAX_REDIRECT_URIS,
  authenticateOAuthClient,
  createApiApp,
  createBrand,
  findOAuthClient,
  isDomainError,
  isRegisteredRedirectUri,
  redirectUriProblem,
  setRedirectUris,
} from '../src';
import { FakeSecretHasher, InMemoryUnitOfWork } from '../src/testing';

async function setUp() {
  const uow = new InMemoryUnitOfWork();
  const deps = { uow, clock: new FixedClock('2026-03-02T09:00:00.000Z'), hasher: new FakeSecretHasher() };
  const brand = await createBrand(deps, { name: 'North Knits', currency: 'EUR' });
  const other = await createBrand(deps, { name: 'South Socks', currency: 'EUR' });
  return { uow, deps, brand, other };
}

/** The DomainError `outcome` rejects with. */
async function failureOf(outcome: Promise<unknown>): Promise<DomainError> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('redirect URI rules', () => {
  it.each([
    'https://erp.example.com/oauth/callback',
    'https://erp.example.com:8443/callback?tenant=north&x=1',
    'HTTPS://ERP.example.com/callback',
    'https://erp.example.com',
    'http://127.0.0.1:8400/callback',
    'http://localhost:3000/callback',
    'http://[::1]:5000/cb',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it.each([
    [
      'http://erp.example.com/callback',
      'may use http only on a loopback host (localhost, 127.0.0.1 or [::1]); use https',
    ],
    [
      'http://127.0.0.1.nip.io/callback',
      'may use http only on a loopback host (localhost, 127.0.0.1 or [::1]); use https',
    ],
    ['https://erp.example.com/callback#done', 'must not have a fragment (#…)'],
    ['https://erp.example.com/callback#', 'must not have a fragment (#…)'],
    ['https://good.example@evil.example/callback', 'must not carry a user name or password'],
    ['/oauth/callback', 'must be an absolute URL such as https://app.example.com/callback'],
    ['erp.example.com/callback', 'must be an absolute URL such as https://app.example.com/callback'],
    ['com.example.app:/oauth2redirect', 'must be an absolute URL such as https://app.example.com/callback'],
    ['ftp://erp.example.com/callback', 'must be an https URL (or http on a loopback host)'],
    ['javascript://erp.example.com/%0aalert(1)', 'must be an https URL (or http on a loopback host)'],
    ['https:///callback', 'must name a host (and a valid port, if any)'],
    ['https://erp.example.com:99999/callback', 'must name a host (and a valid port, if any)'],
    ['https://erp.example.com/call back', 'must not contain spaces or control characters'],
    ['https://erp.example.com/callback\n', 'must not contain spaces or control characters'],
    [`https://erp.example.com/${'x'.repeat(2025)}`, 'must be at most 2048 characters'],
  ])('refuses %j: %s', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });

  it('takes a URI of exactly 2048 characters', () => {
    const uri = `https://erp.example.com/${'x'.repeat(2048 - 'https://erp.example.com/'.length)}`;

    expect(uri).toHaveLength(2048);
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it('matches a redirect URI only character for character', async () => {
    const { deps, brand } = await setUp();
    const { app } = await createApiApp(deps, {
      brandId: brand.id,
      name: 'ERP',
      redirectUris: ['https://erp.example.com/callback'],
    });
    const client = (await findOAuthClient(deps, { clientId: app.clientId }))!;

    expect(isRegisteredRedirectUri(client, 'https://erp.example.com/callback')).toBe(true);
    for (const lookalike of [
      'https://erp.example.com/callback/',
      'https://ERP.example.com/callback',
      'https://erp.example.com:443/callback',
      'https://erp.example.com/callback?next=/admin',
      'https://erp.example.com/Callback',
    ])
      expect(isRegisteredRedirectUri(client, lookalike)).toBe(false);
  });
});

describe('apps as OAuth clients', () => {
  it('registers an app with redirect URIs, without repeats, found by its client id with them', async () => {
    const { deps, brand } = await setUp();

    const { app, appKey, redirectUris } = await createApiApp(deps, {
      brandId: brand.id,
      name: 'ERP',
      redirectUris: [
        'https://erp.example.com/callback',
        'http://localhost:8400/cb',
        'https://erp.example.com/callback',
      ],
    });

    expect(redirectUris).toEqual(['https://erp.example.com/callback', 'http://localhost:8400/cb']);
    expect(await findOAuthClient(deps, { clientId: app.clientId })).toEqual({ app, redirectUris });
    expect(app.appKeyHash).toBe(deps.hasher.hash(appKey));
    expect(await findOAuthClient(deps, { clientId: 'app_unknown' })).toBeNull();
  });

  it('refuses an app whose redirect URIs break the rules, naming each one, and registers nothing', async () => {
    const { deps, brand, uow } = await setUp();

    const refused = await failureOf(
      createApiApp(deps, {
        brandId: brand.id,
        name: 'Sloppy',
        redirectUris: ['https://ok.example/cb', 'http://erp.example.com/cb', 'https://erp.example.com/cb#x'],
      }),
    );

    expect(refused.code).toBe('validation_failed');
    expect(refused.violations).toEqual([
      {
        pointer: '/redirect_uris/1',
        detail: 'redirect_uris[1] may use http only on a loopback host (localhost, 127.0.0.1 or [::1]); use https',
      },
      { pointer: '/redirect_uris/2', detail: 'redirect_uris[2] must not have a fragment (#…)' },
    ]);
    expect(await uow.read((r) => r.apiApps.findByIdAnyBrand(1))).toBeNull();
  });

  it(`takes at most ${MAX_REDIRECT_URIS} redirect URIs, repeats counted once`, async () => {
    const { deps, brand } = await setUp();
    const uris = (count: number) => Array.from({ length: count }, (_, i) => `https://erp.example.com/cb/${i}`);

    const ten = await createApiApp(deps, { brandId: brand.id, name: 'Ten', redirectUris: [...uris(10), ...uris(3)] });
    const eleven = await failureOf(createApiApp(deps, { brandId: brand.id, name: 'Eleven', redirectUris: uris(11) }));

    expect(ten.redirectUris).toHaveLength(10);
    expect(eleven.violations).toEqual([
      { pointer: '/redirect_uris', detail: 'redirect_uris must hold at most 10 URIs, not 11' },
    ]);
  });

  it("replaces an app's redirect URIs, and refuses a bad list or another brand's app leaving them unchanged", async () => {
    const { deps, brand, other } = await setUp();
    const { app } = await createApiApp(deps, {
      brandId: brand.id,
      name: 'ERP',
      redirectUris: ['https://erp.example.com/callback'],
    });

    const replaced = await setRedirectUris(deps, {
      brandId: brand.id,
      appId: app.id,
      redirectUris: ['https://erp.example.com/v2/callback'],
    });
    const badList = await failureOf(
      setRedirectUris(deps, { brandId: brand.id, appId: app.id, redirectUris: ['http://erp.example.com/'] }),
    );
    const foreign = await failureOf(
      setRedirectUris(deps, { brandId: other.id, appId: app.id, redirectUris: ['https://evil.example/cb'] }),
    );

    expect(replaced).toEqual({ app, redirectUris: ['https://erp.example.com/v2/callback'] });
    expect(badList.violations.map((v) => v.pointer)).toEqual(['/redirect_uris/0']);
    expect(foreign).toMatchObject({ code: 'not_found', message: `api app ${app.id} was not found` });
    expect((await findOAuthClient(deps, { clientId: app.clientId }))?.redirectUris).toEqual([
      'https://erp.example.com/v2/callback',
    ]);
  });

  it('authenticates a client with its app key and refuses a wrong key or unknown client with one failure', async () => {
    const { deps, brand } = await setUp();
    const { app, appKey } = await createApiApp(deps, { brandId: brand.id, name: 'ERP' });

    await expect(authenticateOAuthClient(deps, { clientId: app.clientId, clientSecret: appKey })).resolves.toEqual(app);
    const wrongKey = await failureOf(
      authenticateOAuthClient(deps, { clientId: app.clientId, clientSecret: `${appKey}x` }),
    );
    const unknown = await failureOf(authenticateOAuthClient(deps, { clientId: 'app_nobody', clientSecret: appKey }));

    expect(wrongKey).toMatchObject({ code: 'invalid_credentials', message: 'Client authentication failed' });
    expect(unknown).toMatchObject({ code: 'invalid_credentials', message: 'Client authentication failed' });
  });
});
