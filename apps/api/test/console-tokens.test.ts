import request from 'supertest';
import { AccessToken, createApiApp, createBrand, createUser, issueAccessToken } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

/** The CSRF token of the page's forms. */
function csrfTokenOf(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no CSRF token on the page: ${html.slice(0, 300)}`);
  return token;
}

/** The plain token the answer page shows once. */
function shownTokenOf(html: string): string {
  const token = /data-testid="new-token">([^<]+)</.exec(html)?.[1];
  if (!token) throw new Error(`no new token on the page: ${html.slice(0, 300)}`);
  return token;
}

const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();

for (const dialect of testDialects()) {
  describe(`console: log in and personal access tokens [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const deps = () => ({
      uow: t.storage.uow,
      clock: t.clock,
      hasher: nodeSecretHasher,
      passwordHasher: testPasswordHasher,
    });
    let north: { brandId: number; appId: number; appKey: string; annaId: number; bertId: number };
    let south: { appId: number; userId: number };

    beforeAll(async () => {
      const brand = await createBrand(deps(), { name: 'North', currency: 'EUR' });
      const anna = await createUser(deps(), {
        brandId: brand.id,
        email: 'anna@north.example',
        name: 'Anna',
        password: PASSWORD,
      });
      const bert = await createUser(deps(), {
        brandId: brand.id,
        email: 'bert@north.example',
        name: 'Bert',
        password: PASSWORD,
      });
      const app = await createApiApp(deps(), { brandId: brand.id, name: 'ERP <Sync>' });
      north = { brandId: brand.id, appId: app.app.id, appKey: app.appKey, annaId: anna.id, bertId: bert.id };
      const other = await createBrand(deps(), { name: 'South', currency: 'EUR' });
      const sam = await createUser(deps(), {
        brandId: other.id,
        email: 'sam@south.example',
        name: 'Sam',
        password: PASSWORD,
      });
      const southApp = await createApiApp(deps(), { brandId: other.id, name: 'South ERP' });
      south = { appId: southApp.app.id, userId: sam.id };
    });

    /** A fresh browser logged in as `email`; answers it and the CSRF token of its pages. */
    async function loggedIn(email = 'anna@north.example') {
      const agent = request.agent(t.server);
      const loginPage = await agent.get('/console/login');
      expect(loginPage.status).toBe(200);
      const answer = await agent
        .post('/console/login')
        .type('form')
        .send(
          form([
            ['csrf_token', csrfTokenOf(loginPage.text)],
            ['email', email],
            ['password', PASSWORD],
          ]),
        );
      expect(answer.status).toBe(303);
      expect(answer.headers['location']).toBe('/console/tokens');
      const tokens = await agent.get('/console/tokens');
      expect(tokens.status).toBe(200);
      return { agent, csrfToken: csrfTokenOf(tokens.text) };
    }

    const issue = (agent: ReturnType<typeof request.agent>, fields: [string, string][]) =>
      agent.post('/console/tokens').type('form').send(form(fields));

    const tokensOf = (brandId: number, userId: number): Promise<AccessToken[]> =>
      t.storage.uow.read((r) => r.accessTokens.listForUser(brandId, userId));

    const customersWith = (accessToken: string) =>
      request(t.server)
        .get('/v10/customers')
        .set({ Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': north.appKey });

    it('redirects to the login page without a session, and to the tokens page with one', async () => {
      for (const path of ['/console', '/console/tokens']) {
        const answer = await request(t.server).get(path);
        expect(answer.status).toBe(303);
        expect(answer.headers['location']).toBe('/console/login');
      }
      const { agent } = await loggedIn();
      const home = await agent.get('/console');
      expect(home.headers['location']).toBe('/console/tokens');
    });

    it('serves its pages uncached and unframeable, with the user named', async () => {
      const { agent } = await loggedIn();
      const page = await agent.get('/console/tokens');
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.text).toContain('Logged in as Anna');
      expect(page.text).toContain('<option value="' + north.appId + '">ERP &lt;Sync&gt;</option>');
      expect(page.text).not.toContain('South ERP');
    });

    it('refuses a wrong password with the login page again (401) and no session', async () => {
      const agent = request.agent(t.server);
      const loginPage = await agent.get('/console/login');
      const answer = await agent
        .post('/console/login')
        .type('form')
        .send(
          form([
            ['csrf_token', csrfTokenOf(loginPage.text)],
            ['email', 'anna@north.example'],
            ['password', 'wrong'],
          ]),
        );
      expect(answer.status).toBe(401);
      expect(answer.text).toContain('name="email"');
      expect((await agent.get('/console/tokens')).headers['location']).toBe('/console/login');
    });

    it('refuses a login without the CSRF token (403)', async () => {
      const agent = request.agent(t.server);
      await agent.get('/console/login');
      const answer = await agent
        .post('/console/login')
        .type('form')
        .send(
          form([
            ['email', 'anna@north.example'],
            ['password', PASSWORD],
          ]),
        );
      expect(answer.status).toBe(403);
      expect((await agent.get('/console/tokens')).headers['location']).toBe('/console/login');
    });

    it('logs out: the session is over, and the old cookie opens nothing', async () => {
      const { agent, csrfToken } = await loggedIn();
      const out = await agent
        .post('/console/logout')
        .type('form')
        .send(form([['csrf_token', csrfToken]]));
      expect(out.status).toBe(303);
      expect(out.headers['location']).toBe('/console/login');
      expect((await agent.get('/console/tokens')).headers['location']).toBe('/console/login');
    });

    it('issues a token that works on the API with the app key, shown once and never on the list', async () => {
      const { agent, csrfToken } = await loggedIn();
      const before = (await tokensOf(north.brandId, north.annaId)).length;
      const answer = await issue(agent, [
        ['csrf_token', csrfToken],
        ['app_id', String(north.appId)],
        ['scope', 'customers:read'],
        ['scope', 'orders:read'],
        ['expires_in_days', '30'],
      ]);
      expect(answer.status).toBe(201);
      const accessToken = shownTokenOf(answer.text);

      const api = await customersWith(accessToken);
      expect(api.status).toBe(200);
      expect(api.body).toHaveProperty('customers');

      const stored = await tokensOf(north.brandId, north.annaId);
      expect(stored).toHaveLength(before + 1);
      expect(stored[0]).toMatchObject({
        appId: north.appId,
        scopes: ['customers:read', 'orders:read'],
        revokedAt: null,
      });
      expect(Date.parse(stored[0]!.expiresAt) - Date.parse(stored[0]!.createdAt)).toBe(30 * 24 * 60 * 60 * 1000);

      const list = await agent.get('/console/tokens');
      expect(list.text).not.toContain(accessToken);
      expect(list.text).not.toContain('data-testid="new-token"');
      expect(list.text).toContain(`data-token-id="${stored[0]!.id}"`);
    });

    it.each([
      ['no scope ticked', [['expires_in_days', '30']], 'scope'],
      [
        'an unknown scope',
        [
          ['scope', 'everything:write'],
          ['expires_in_days', '30'],
        ],
        'scope',
      ],
      [
        'expiry zero',
        [
          ['scope', 'orders:read'],
          ['expires_in_days', '0'],
        ],
        'expires_in_days',
      ],
      [
        'expiry not a number',
        [
          ['scope', 'orders:read'],
          ['expires_in_days', 'soon'],
        ],
        'expires_in_days',
      ],
    ] as [string, [string, string][], string][])(
      'refuses %s with a 400 naming the field, and issues nothing',
      async (_case, fields, field) => {
        const { agent, csrfToken } = await loggedIn();
        const before = await tokensOf(north.brandId, north.annaId);
        const answer = await issue(agent, [['csrf_token', csrfToken], ['app_id', String(north.appId)], ...fields]);
        expect(answer.status).toBe(400);
        expect(answer.text).toContain(`${field}:`);
        expect(await tokensOf(north.brandId, north.annaId)).toStrictEqual(before);
      },
    );

    it("refuses another brand's app with a 404 page, and issues nothing", async () => {
      const { agent, csrfToken } = await loggedIn();
      const before = await tokensOf(north.brandId, north.annaId);
      const answer = await issue(agent, [
        ['csrf_token', csrfToken],
        ['app_id', String(south.appId)],
        ['scope', 'orders:read'],
        ['expires_in_days', '30'],
      ]);
      expect(answer.status).toBe(404);
      expect(await tokensOf(north.brandId, north.annaId)).toStrictEqual(before);
    });

    it('refuses to issue without the CSRF token, or with a wrong one (403), and issues nothing', async () => {
      const { agent } = await loggedIn();
      const before = await tokensOf(north.brandId, north.annaId);
      const fields: [string, string][] = [
        ['app_id', String(north.appId)],
        ['scope', 'orders:read'],
        ['expires_in_days', '30'],
      ];
      expect((await issue(agent, fields)).status).toBe(403);
      expect((await issue(agent, [['csrf_token', 'forged'], ...fields])).status).toBe(403);
      expect(await tokensOf(north.brandId, north.annaId)).toStrictEqual(before);
    });

    it('revokes a token: the API refuses it (401) from the next request, and the list says revoked', async () => {
      const { agent, csrfToken } = await loggedIn();
      const issued = await issue(agent, [
        ['csrf_token', csrfToken],
        ['app_id', String(north.appId)],
        ['scope', 'customers:read'],
        ['expires_in_days', '7'],
      ]);
      const accessToken = shownTokenOf(issued.text);
      expect((await customersWith(accessToken)).status).toBe(200);
      const [token] = await tokensOf(north.brandId, north.annaId);

      const revoked = await agent
        .post(`/console/tokens/${token!.id}/revoke`)
        .type('form')
        .send(form([['csrf_token', csrfToken]]));
      expect(revoked.status).toBe(303);
      expect(revoked.headers['location']).toBe('/console/tokens');

      expect((await customersWith(accessToken)).status).toBe(401);
      const list = await agent.get('/console/tokens');
      expect(list.text).toMatch(new RegExp(`data-token-id="${token!.id}">.*?revoked`));
    });

    it('refuses a revoke without the CSRF token (403) and the token keeps working', async () => {
      const { agent } = await loggedIn();
      const { token, accessToken } = await issueAccessToken(deps(), { userId: north.annaId, appId: north.appId });
      const answer = await agent.post(`/console/tokens/${token.id}/revoke`).type('form').send('');
      expect(answer.status).toBe(403);
      expect((await customersWith(accessToken)).status).toBe(200);
    });

    it("answers 404 for a colleague's or another brand's token, and neither is revoked", async () => {
      const { agent, csrfToken } = await loggedIn();
      const colleagues = await issueAccessToken(deps(), { userId: north.bertId, appId: north.appId });
      const foreign = await issueAccessToken(deps(), { userId: south.userId, appId: south.appId });
      for (const id of [colleagues.token.id, foreign.token.id, 987_654_321]) {
        const answer = await agent
          .post(`/console/tokens/${id}/revoke`)
          .type('form')
          .send(form([['csrf_token', csrfToken]]));
        expect(answer.status).toBe(404);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
      }
      expect((await customersWith(colleagues.accessToken)).status).toBe(200);
      const foreignToken = await t.storage.uow.read((r) =>
        r.accessTokens.findById(foreign.token.brandId, foreign.token.id),
      );
      expect(foreignToken?.revokedAt).toBeNull();
      const list = await agent.get('/console/tokens');
      expect(list.text).not.toContain(`data-token-id="${colleagues.token.id}"`);
      expect(list.text).not.toContain(`data-token-id="${foreign.token.id}"`);
    });
  });
}
