import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { ApiApp, createApiApp, createBrand, createUser, issueAccessToken, issueAuthorizationCode } from '@brand/core';
import { Storage, openStorage } from '@brand/persistence-kysely';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { ConsoleAgent, formBody, logInToConsole, shownOnce } from './support/console-agent';
import { buildApp, useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';
const REDIRECT_URI = 'https://erp.north.example/oauth/callback';

for (const dialect of testDialects()) {
  describe(`console: apps [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const deps = () => ({
      uow: t.storage.uow,
      clock: t.clock,
      hasher: nodeSecretHasher,
      passwordHasher: testPasswordHasher,
    });
    let north: { brandId: number; userId: number };
    let south: { app: ApiApp; appKey: string; accessToken: string };

    beforeAll(async () => {
      const brand = await createBrand(deps(), { name: 'North', currency: 'EUR' });
      const anna = await createUser(deps(), {
        brandId: brand.id,
        email: 'anna@north.example',
        name: 'Anna',
        password: PASSWORD,
      });
      north = { brandId: brand.id, userId: anna.id };
      const other = await createBrand(deps(), { name: 'South', currency: 'EUR' });
      const sam = await createUser(deps(), { brandId: other.id, email: 'sam@south.example', name: 'Sam' });
      const { app, appKey } = await createApiApp(deps(), {
        brandId: other.id,
        name: 'South ERP',
        redirectUris: ['https://erp.south.example/callback'],
      });
      const { accessToken } = await issueAccessToken(deps(), { userId: sam.id, appId: app.id });
      south = { app, appKey, accessToken };
    });

    const loggedIn = () => logInToConsole(t.server, 'anna@north.example', PASSWORD, '/console/apps');

    const post = (agent: ConsoleAgent, path: string, fields: [string, string][]) =>
      agent.post(path).type('form').send(formBody(fields));

    const appsOf = (brandId: number) => t.storage.uow.read((r) => r.apiApps.listForBrand(brandId));
    const appById = (id: number) => t.storage.uow.read((r) => r.apiApps.findByIdAnyBrand(id));
    const redirectUrisOf = (app: ApiApp) => t.storage.uow.read((r) => r.apiApps.findRedirectUris(app.brandId, app.id));

    /** An app of North made directly, with a token of Anna's for it. */
    async function anApp(name = 'ERP') {
      const { app, appKey } = await createApiApp(deps(), {
        brandId: north.brandId,
        name,
        redirectUris: [REDIRECT_URI],
      });
      const { accessToken } = await issueAccessToken(deps(), { userId: north.userId, appId: app.id });
      return { app, appKey, accessToken };
    }

    const customersOn = (server: Parameters<typeof request>[0], accessToken: string, appKey: string) =>
      request(server)
        .get('/v10/customers')
        .set({ Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': appKey });
    const customersWith = (accessToken: string, appKey: string) => customersOn(t.server, accessToken, appKey);

    /** A code issued to `app`, and the request exchanging it at the token endpoint with a given client secret. */
    async function exchangeCode(app: ApiApp) {
      const verifier = randomBytes(32).toString('base64url');
      const { code } = await issueAuthorizationCode(deps(), {
        brandId: north.brandId,
        userId: north.userId,
        appId: app.id,
        redirectUri: REDIRECT_URI,
        codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
        codeChallengeMethod: 'S256',
      });
      // HTTP Basic, as the README's curl does: a refused client is a 401 with a challenge.
      return (clientSecret: string) =>
        request(t.server)
          .post('/oauth/token')
          .type('form')
          .auth(app.clientId, clientSecret)
          .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    }

    it('redirects every page to the login without a session', async () => {
      const { app } = await anApp();
      for (const path of ['/console/apps', `/console/apps/${app.id}`, `/console/apps/${app.id}/rotate-key`]) {
        const answer = await request(t.server).get(path);
        expect({ path, status: answer.status, location: answer.headers['location'] }).toEqual({
          path,
          status: 303,
          location: '/console/login',
        });
      }
    });

    it("lists the brand's apps with client id, internal code and redirect URIs, never another brand's", async () => {
      const { app } = await anApp('Warehouse <Sync>');
      const { agent } = await loggedIn();

      const page = await agent.get('/console/apps');

      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain(`<a href="/console/apps/${app.id}">Warehouse &lt;Sync&gt;</a>`);
      expect(page.text).toContain(app.clientId);
      expect(page.text).toContain(REDIRECT_URI);
      expect(page.text).toContain('aria-current="page">Apps</a>');
      expect(page.text).not.toContain('South ERP');
      expect(page.text).not.toContain(south.app.clientId);
    });

    it('creates an app whose key, shown once with its client id, works on the API and as the OAuth client secret', async () => {
      const { agent, csrfToken } = await loggedIn();
      const before = await appsOf(north.brandId);

      const answer = await post(agent, '/console/apps', [
        ['csrf_token', csrfToken],
        ['name', '  Shop link  '],
        ['internal_code', 'shop-portal'],
        ['redirect_uris', `${REDIRECT_URI}\r\n\r\n  http://127.0.0.1:8400/callback  \r\n`],
      ]);

      expect(answer.status).toBe(201);
      const appKey = shownOnce(answer.text, 'new-app-key');
      const after = await appsOf(north.brandId);
      expect(after).toHaveLength(before.length + 1);
      const created = after.at(-1)!;
      expect(created).toMatchObject({ name: 'Shop link', internalCode: 'shop-portal' });
      expect(shownOnce(answer.text, 'client-id')).toBe(created.clientId);
      expect(created.appKeyHash).toBe(nodeSecretHasher.hash(appKey));
      expect(await redirectUrisOf(created)).toEqual([REDIRECT_URI, 'http://127.0.0.1:8400/callback']);

      const { accessToken } = await issueAccessToken(deps(), { userId: north.userId, appId: created.id });
      expect((await customersWith(accessToken, appKey)).status).toBe(200);
      const exchange = await exchangeCode(created);
      expect((await exchange(appKey)).status).toBe(200);

      for (const path of ['/console/apps', `/console/apps/${created.id}`]) {
        const later = await agent.get(path);
        expect(later.text).toContain(created.clientId);
        expect(later.text).not.toContain(appKey);
        expect(later.text).not.toContain('data-testid="new-app-key"');
      }
    });

    it.each([
      ['an empty name', [['name', '   ']], 'name must not be empty'],
      [
        'an internal code with capitals',
        [
          ['name', 'ERP'],
          ['internal_code', 'Shop Portal'],
        ],
        'internal_code must be 1-64 characters of a-z, 0-9, _ or -',
      ],
      [
        'a plain-http redirect URI off the loopback',
        [
          ['name', 'ERP'],
          ['redirect_uris', `${REDIRECT_URI}\nhttp://erp.north.example/callback`],
        ],
        'redirect_uris: http://erp.north.example/callback may use http only on a loopback host',
      ],
      [
        'a redirect URI with a fragment',
        [
          ['name', 'ERP'],
          ['redirect_uris', 'https://erp.north.example/callback#done'],
        ],
        'redirect_uris: https://erp.north.example/callback#done must not have a fragment',
      ],
      [
        'eleven redirect URIs',
        [
          ['name', 'ERP'],
          ['redirect_uris', Array.from({ length: 11 }, (_, i) => `https://erp.north.example/cb${i}`).join('\n')],
        ],
        'redirect_uris must hold at most 10 URIs, not 11',
      ],
    ] as [string, [string, string][], string][])(
      'refuses %s with a 400 page naming the field, keeps what was typed, and creates nothing',
      async (_case, fields, message) => {
        const { agent, csrfToken } = await loggedIn();
        const before = await appsOf(north.brandId);

        const answer = await post(agent, '/console/apps', [['csrf_token', csrfToken], ...fields]);

        expect(answer.status).toBe(400);
        expect(answer.text).toContain('role="alert"');
        expect(answer.text).toContain(message.replace(/</g, '&lt;'));
        expect(answer.text).not.toContain('data-testid="new-app-key"');
        const typedName = fields.find(([field]) => field === 'name')![1];
        expect(answer.text).toContain(`name="name" required value="${typedName}"`);
        expect(await appsOf(north.brandId)).toStrictEqual(before);
      },
    );

    it('refuses to create without the CSRF token, or with a wrong one (403), and creates nothing', async () => {
      const { agent } = await loggedIn();
      const before = await appsOf(north.brandId);

      expect((await post(agent, '/console/apps', [['name', 'Forged']])).status).toBe(403);
      expect(
        (
          await post(agent, '/console/apps', [
            ['csrf_token', 'forged'],
            ['name', 'Forged'],
          ])
        ).status,
      ).toBe(403);
      expect((await post(request.agent(t.server), '/console/apps', [['name', 'No session']])).status).toBe(403);

      expect(await appsOf(north.brandId)).toStrictEqual(before);
    });

    it("shows an app's page, and replaces its redirect URIs: the page and the OAuth client show the new list", async () => {
      const { app } = await anApp();
      const { agent, csrfToken } = await loggedIn();
      const page = await agent.get(`/console/apps/${app.id}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(app.clientId);
      expect(page.text).toContain(`>${REDIRECT_URI}</textarea>`);

      const saved = await post(agent, `/console/apps/${app.id}/redirect-uris`, [
        ['csrf_token', csrfToken],
        ['redirect_uris', 'https://erp.north.example/v2/callback\nhttp://localhost:3000/cb'],
      ]);

      expect(saved.status).toBe(303);
      expect(saved.headers['location']).toBe(`/console/apps/${app.id}`);
      expect(await redirectUrisOf(app)).toEqual(['https://erp.north.example/v2/callback', 'http://localhost:3000/cb']);
      const after = await agent.get(`/console/apps/${app.id}`);
      expect(after.text).toContain(
        '<code>https://erp.north.example/v2/callback</code><br><code>http://localhost:3000/cb</code>',
      );
      const authorize = await request(t.server).get('/oauth/authorize').query({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      expect(authorize.status).toBe(400);

      const cleared = await post(agent, `/console/apps/${app.id}/redirect-uris`, [
        ['csrf_token', csrfToken],
        ['redirect_uris', ''],
      ]);
      expect(cleared.status).toBe(303);
      expect(await redirectUrisOf(app)).toEqual([]);
    });

    it('refuses a bad redirect URI with a 400 page naming it, keeping what was typed, and changes nothing', async () => {
      const { app } = await anApp();
      const { agent, csrfToken } = await loggedIn();

      const answer = await post(agent, `/console/apps/${app.id}/redirect-uris`, [
        ['csrf_token', csrfToken],
        ['redirect_uris', 'https://ok.north.example/cb\nftp://erp.north.example/cb'],
      ]);

      expect(answer.status).toBe(400);
      expect(answer.text).toContain(
        'redirect_uris: ftp://erp.north.example/cb must be an https URL (or http on a loopback host)',
      );
      expect(answer.text).toContain('https://ok.north.example/cb\nftp://erp.north.example/cb</textarea>');
      expect(await redirectUrisOf(app)).toEqual([REDIRECT_URI]);
    });

    it('refuses to change redirect URIs without the CSRF token (403), and changes nothing', async () => {
      const { app } = await anApp();
      const { agent } = await loggedIn();

      const answer = await post(agent, `/console/apps/${app.id}/redirect-uris`, [
        ['redirect_uris', 'https://evil.example/cb'],
      ]);

      expect(answer.status).toBe(403);
      expect(await redirectUrisOf(app)).toEqual([REDIRECT_URI]);
    });

    it('asks before rotating a key, and changes nothing by asking', async () => {
      const { app, appKey, accessToken } = await anApp();
      const { agent } = await loggedIn();

      const confirm = await agent.get(`/console/apps/${app.id}/rotate-key`);

      expect(confirm.status).toBe(200);
      expect(confirm.text).toContain('stops working <strong>at once</strong>');
      expect(confirm.text).toContain(`action="/console/apps/${app.id}/rotate-key"`);
      expect(await appById(app.id)).toStrictEqual(app);
      expect((await customersWith(accessToken, appKey)).status).toBe(200);
    });

    it('rotates a key: the new one is shown once; the old one is refused at once by the running app that had it cached, and by another', async () => {
      const { app, appKey: oldKey, accessToken } = await anApp();
      // Another process: its own verifier cache (and, on Postgres, its own connections).
      const secondStorage: Storage | null = dialect === 'postgres' ? await openStorage(t.storage.url) : null;
      const otherProcess = buildApp(secondStorage ?? t.storage, t.clock);
      try {
        expect((await customersWith(accessToken, oldKey)).status).toBe(200);
        expect((await customersOn(otherProcess, accessToken, oldKey)).status).toBe(200);
        const { agent, csrfToken } = await loggedIn();

        const answer = await post(agent, `/console/apps/${app.id}/rotate-key`, [['csrf_token', csrfToken]]);

        expect(answer.status).toBe(200);
        const newKey = shownOnce(answer.text, 'new-app-key');
        expect(newKey).not.toBe(oldKey);
        expect(shownOnce(answer.text, 'client-id')).toBe(app.clientId);
        expect(await appById(app.id)).toStrictEqual({ ...app, appKeyHash: nodeSecretHasher.hash(newKey) });

        const refused = await customersWith(accessToken, oldKey);
        expect(refused.status).toBe(401);
        expect(refused.body.errors[0].detail).toBe('The app key does not belong to the app of this access token');
        expect((await customersOn(otherProcess, accessToken, oldKey)).status).toBe(401);
        expect((await customersWith(accessToken, newKey)).status).toBe(200);
        expect((await customersOn(otherProcess, accessToken, newKey)).status).toBe(200);

        const page = await agent.get(`/console/apps/${app.id}`);
        expect(page.text).not.toContain(newKey);
        expect(page.text).not.toContain('data-testid="new-app-key"');
      } finally {
        await secondStorage?.close();
      }
    });

    it('rotates the OAuth client secret too: the token endpoint refuses the old key and takes the new one', async () => {
      const { app, appKey: oldKey } = await anApp();
      const exchange = await exchangeCode(app);
      const { agent, csrfToken } = await loggedIn();

      const answer = await post(agent, `/console/apps/${app.id}/rotate-key`, [['csrf_token', csrfToken]]);
      const newKey = shownOnce(answer.text, 'new-app-key');

      const withOld = await exchange(oldKey);
      expect(withOld.status).toBe(401);
      expect(withOld.body.error).toBe('invalid_client');
      const withNew = await exchange(newKey);
      expect(withNew.status).toBe(200);
      expect((await customersWith(withNew.body.access_token, newKey)).status).toBe(200);
    });

    it('refuses a rotation without the CSRF token, or with a wrong one (403), and the key keeps working', async () => {
      const { app, appKey, accessToken } = await anApp();
      const { agent } = await loggedIn();

      expect((await post(agent, `/console/apps/${app.id}/rotate-key`, [])).status).toBe(403);
      expect((await post(agent, `/console/apps/${app.id}/rotate-key`, [['csrf_token', 'forged']])).status).toBe(403);

      expect(await appById(app.id)).toStrictEqual(app);
      expect((await customersWith(accessToken, appKey)).status).toBe(200);
    });

    it("answers 404 pages for another brand's app, an unknown or a malformed id, and changes nothing", async () => {
      const { agent, csrfToken } = await loggedIn();
      for (const id of [String(south.app.id), '987654321', 'abc', '0']) {
        const answers = [
          await agent.get(`/console/apps/${id}`),
          await agent.get(`/console/apps/${id}/rotate-key`),
          await post(agent, `/console/apps/${id}/rotate-key`, [['csrf_token', csrfToken]]),
          await post(agent, `/console/apps/${id}/redirect-uris`, [
            ['csrf_token', csrfToken],
            ['redirect_uris', 'https://evil.example/cb'],
          ]),
        ];
        for (const answer of answers) {
          expect({ id, status: answer.status }).toEqual({ id, status: 404 });
          expect(answer.headers['content-type']).toMatch(/^text\/html/);
          expect(answer.text).not.toContain('South ERP');
        }
      }

      expect(await appById(south.app.id)).toStrictEqual(south.app);
      expect(await redirectUrisOf(south.app)).toEqual(['https://erp.south.example/callback']);
      expect((await customersWith(south.accessToken, south.appKey)).status).toBe(200);
    });
  });
}
