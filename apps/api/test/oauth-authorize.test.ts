import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { DomainError, Scope, UnitOfWork, createApiApp, createBrand, createUser } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { buildApp, useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const REDIRECT_URI = 'https://erp.example/callback';
const PASSWORD = 'correct horse battery staple';

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The CSRF token of the page's forms. */
function csrfTokenOf(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no CSRF token on the page: ${html.slice(0, 300)}`);
  return token;
}

/** The query of a redirect's Location as an object. */
function redirectQuery(response: request.Response): Record<string, string> {
  const location = response.headers['location'] as string;
  return Object.fromEntries(new URL(location).searchParams);
}

const setCookies = (response: request.Response): string[] =>
  ([] as string[]).concat((response.headers['set-cookie'] as string[] | string | undefined) ?? []);

for (const dialect of testDialects()) {
  describe(`OAuth 2.0 authorization pages: login and consent [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let client: { brandId: number; clientId: string; appKey: string; brandName: string };
    let otherBrandUserEmail: string;

    beforeAll(async () => {
      const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher, passwordHasher: testPasswordHasher };
      const brand = await createBrand(deps, { name: 'North <Shoes>', currency: 'EUR' });
      await createUser(deps, { brandId: brand.id, email: 'anna@north.example', name: 'Anna', password: PASSWORD });
      await createUser(deps, { brandId: brand.id, email: 'throttled@north.example', name: 'T', password: PASSWORD });
      const app = await createApiApp(deps, { brandId: brand.id, name: 'ERP & Co', redirectUris: [REDIRECT_URI] });
      client = { brandId: brand.id, clientId: app.app.clientId, appKey: app.appKey, brandName: brand.name };
      const other = await createBrand(deps, { name: 'South', currency: 'EUR' });
      otherBrandUserEmail = 'sam@south.example';
      await createUser(deps, { brandId: other.id, email: otherBrandUserEmail, name: 'Sam', password: PASSWORD });
    });

    function authorizeParams(overrides: Record<string, string | undefined> = {}) {
      const pkce = pkcePair();
      const params: Record<string, string> = {};
      const all: Record<string, string | undefined> = {
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: REDIRECT_URI,
        scope: 'customers:read orders:read',
        state: 'xyz-123',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        ...overrides,
      };
      for (const [name, value] of Object.entries(all)) if (value !== undefined) params[name] = value;
      return { params, verifier: pkce.verifier };
    }

    const authorizeUrl = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams(params)}`;
    const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();

    /** Logs in through the login page with a fresh browser (agent); answers the agent and the consent page. */
    async function logInFor(params: Record<string, string>, email = 'anna@north.example') {
      const agent = request.agent(t.server);
      const loginPage = await agent.get(authorizeUrl(params));
      expect(loginPage.status).toBe(200);
      const loggedIn = await agent
        .post('/oauth/login')
        .type('form')
        .send(
          form([
            ...Object.entries(params),
            ['csrf_token', csrfTokenOf(loginPage.text)],
            ['email', email],
            ['password', PASSWORD],
          ]),
        );
      return { agent, loggedIn };
    }

    async function consentFor(params: Record<string, string>) {
      const { agent, loggedIn } = await logInFor(params);
      expect(loggedIn.status).toBe(303);
      const consent = await agent.get(loggedIn.headers['location'] as string);
      expect(consent.status).toBe(200);
      return { agent, consent, csrfToken: csrfTokenOf(consent.text) };
    }

    const decide = (
      agent: ReturnType<typeof request.agent>,
      params: Record<string, string>,
      fields: { decision: string; scopes: string[]; csrfToken: string },
    ) => {
      const { scope: _asked, ...carried } = params;
      return agent
        .post('/oauth/authorize')
        .type('form')
        .send(
          form([
            ...Object.entries(carried),
            ['csrf_token', fields.csrfToken],
            ...fields.scopes.map((s): [string, string] => ['scope', s]),
            ['decision', fields.decision],
          ]),
        );
    };

    /** How many authorization codes were issued since the last call: ids are drawn one by one, so a gap counts them. */
    async function codesIssuedSince(lastId: number): Promise<{ issued: number; lastId: number }> {
      const [id] = await t.storage.uow.run((tx) => tx.ids.next('oauth_authorization_codes'));
      return { issued: id! - lastId - 1, lastId: id! };
    }

    const exchange = (code: string, verifier: string) =>
      request(t.server).post('/oauth/token').type('form').send({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: client.clientId,
        client_secret: client.appKey,
      });

    describe('requests that cannot be trusted: an error page, never a redirect', () => {
      it.each([
        ['an unknown client', { client_id: 'app_unknown' }, /not known/],
        ['a missing client_id', { client_id: undefined }, /client_id/],
        [
          'an unregistered redirect_uri',
          { redirect_uri: 'https://evil.example/callback' },
          /not one this app registered/,
        ],
        ['a look-alike redirect_uri', { redirect_uri: `${REDIRECT_URI}/` }, /not one this app registered/],
        ['a missing redirect_uri', { redirect_uri: undefined }, /redirect_uri/],
      ])('shows an error page for %s', async (_label, overrides, message) => {
        const response = await request(t.server).get(authorizeUrl(authorizeParams(overrides).params));
        expect(response.status).toBe(400);
        expect(response.headers['location']).toBeUndefined();
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.text).toMatch(message);
        expect(response.text).not.toContain('<form');
      });
    });

    describe('bad parameters of a trusted client: redirected with the error and the state', () => {
      it.each([
        ['no code_challenge (PKCE is required)', 'invalid_request', { code_challenge: undefined }],
        ['a malformed code_challenge', 'invalid_request', { code_challenge: 'short' }],
        ['the plain method', 'invalid_request', { code_challenge_method: 'plain' }],
        ['no code_challenge_method', 'invalid_request', { code_challenge_method: undefined }],
        ['response_type token', 'unsupported_response_type', { response_type: 'token' }],
        ['no response_type', 'invalid_request', { response_type: undefined }],
        ['an unknown scope', 'invalid_scope', { scope: 'orders:read orders:delete' }],
      ])('redirects %s as %s', async (_label, error, overrides) => {
        const response = await request(t.server).get(authorizeUrl(authorizeParams(overrides).params));
        expect(response.status).toBe(302);
        expect((response.headers['location'] as string).startsWith(`${REDIRECT_URI}?`)).toBe(true);
        expect(redirectQuery(response)).toEqual({ error, error_description: expect.any(String), state: 'xyz-123' });
      });
    });

    it('answers a database outage with a 503 page, not a crash', async () => {
      const outage = new DomainError('storage_unavailable', 'database unreachable');
      const failing: UnitOfWork = {
        run: () => Promise.reject(outage),
        read: () => Promise.reject(outage),
      };
      const app = buildApp({ ...t.storage, uow: failing }, t.clock);
      const response = await request(app).get(authorizeUrl(authorizeParams().params));
      expect(response.status).toBe(503);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['retry-after']).toBeDefined();
      expect(response.text).toContain('Temporarily unavailable');
    });

    it('shows the login page without a session: email and password inputs, CSRF token, no caching, no framing', async () => {
      const response = await request(t.server).get(authorizeUrl(authorizeParams().params));
      expect(response.status).toBe(200);
      expect(response.text).toMatch(/<input[^>]*type="email" name="email"/);
      expect(response.text).toMatch(/<input[^>]*type="password" name="password"/);
      expect(response.text).toContain('action="/oauth/login"');
      expect(response.text).toContain('ERP &amp; Co');
      expect(csrfTokenOf(response.text)).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    });

    it('escapes what the client sends when it carries it along', async () => {
      const { params } = authorizeParams({ state: '"><script>alert(1)</script>' });
      const response = await request(t.server).get(authorizeUrl(params));
      expect(response.status).toBe(200);
      expect(response.text).not.toContain('<script>');
      expect(response.text).toContain('&quot;&gt;&lt;script&gt;');
    });

    it('re-shows the login page with one generic message for a wrong password, and starts no session', async () => {
      const { params } = authorizeParams();
      const agent = request.agent(t.server);
      const page = await agent.get(authorizeUrl(params));
      const response = await agent
        .post('/oauth/login')
        .type('form')
        .send(
          form([
            ...Object.entries(params),
            ['csrf_token', csrfTokenOf(page.text)],
            ['email', 'anna@north.example'],
            ['password', 'wrong password'],
          ]),
        );
      expect(response.status).toBe(401);
      expect(response.text).toContain('Invalid email or password');
      expect(response.text).toMatch(/name="email"[^>]*value="anna@north.example"/);
      expect(setCookies(response).some((c) => c.startsWith('session='))).toBe(false);
      // Still the login page: no session was started.
      const again = await agent.get(authorizeUrl(params));
      expect(again.text).toContain('action="/oauth/login"');
    });

    it('throttles failed log-ins of an account, showing when to try again (429)', async () => {
      const { params } = authorizeParams();
      const agent = request.agent(t.server);
      const page = await agent.get(authorizeUrl(params));
      const attempt = (password: string) =>
        agent
          .post('/oauth/login')
          .type('form')
          .send(
            form([
              ...Object.entries(params),
              ['csrf_token', csrfTokenOf(page.text)],
              ['email', 'throttled@north.example'],
              ['password', password],
            ]),
          );
      for (let i = 0; i < 5; i++) expect((await attempt('wrong')).status).toBe(401);
      const refused = await attempt(PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.text).toMatch(/try again in \d+ seconds?/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(setCookies(refused).some((c) => c.startsWith('session='))).toBe(false);
    });

    it('refuses a log-in without the CSRF token or with a wrong one (403), starting no session', async () => {
      const { params } = authorizeParams();
      const agent = request.agent(t.server);
      await agent.get(authorizeUrl(params));
      for (const token of [[], [['csrf_token', 'forged-token-forged-token-forged-token']]] as [string, string][][]) {
        const response = await agent
          .post('/oauth/login')
          .type('form')
          .send(form([...Object.entries(params), ...token, ['email', 'anna@north.example'], ['password', PASSWORD]]));
        expect(response.status).toBe(403);
        expect(setCookies(response).some((c) => c.startsWith('session='))).toBe(false);
      }
      expect((await agent.get(authorizeUrl(params))).text).toContain('action="/oauth/login"');
    });

    it('sets the session cookie HttpOnly, SameSite=Lax, Path=/ (not Secure over plain http)', async () => {
      const { loggedIn } = await logInFor(authorizeParams().params);
      const session = setCookies(loggedIn).find((c) => c.startsWith('session='));
      expect(session).toBeDefined();
      expect(session).toMatch(/; HttpOnly/);
      expect(session).toMatch(/; SameSite=Lax/);
      expect(session).toMatch(/; Path=\//);
      expect(session).not.toMatch(/; Secure/);
    });

    it('over TLS behind a trusted proxy, names the cookie __Host-session and makes it Secure', async () => {
      t.app.set('trust proxy', 'loopback');
      try {
        const { params } = authorizeParams();
        const agent = request.agent(t.server);
        const page = await agent.get(authorizeUrl(params)).set('X-Forwarded-Proto', 'https');
        const csrfCookie = setCookies(page).find((c) => c.startsWith('__Host-login_csrf='));
        expect(csrfCookie).toMatch(/; Secure/);
        const loggedIn = await request(t.server)
          .post('/oauth/login')
          .set('X-Forwarded-Proto', 'https')
          .set('Cookie', csrfCookie!.split(';')[0]!)
          .type('form')
          .send(
            form([
              ...Object.entries(params),
              ['csrf_token', csrfTokenOf(page.text)],
              ['email', 'anna@north.example'],
              ['password', PASSWORD],
            ]),
          );
        expect(loggedIn.status).toBe(303);
        const session = setCookies(loggedIn).find((c) => c.startsWith('__Host-session='));
        expect(session).toMatch(/; Secure/);
        expect(session).toMatch(/; HttpOnly/);
        expect(session).toMatch(/; Path=\//);
      } finally {
        t.app.set('trust proxy', false);
      }
    });

    it('shows the consent page with the app, the brand and the scopes asked, readable and as checkboxes', async () => {
      const { consent } = await consentFor(authorizeParams().params);
      expect(consent.text).toContain('ERP &amp; Co');
      expect(consent.text).toContain('North &lt;Shoes&gt;');
      expect(consent.text).toContain('Customers: read');
      expect(consent.text).toContain('Orders: read');
      expect(consent.text).toMatch(/type="checkbox" name="scope" value="customers:read" checked/);
      expect(consent.text).not.toContain('value="orders:write"');
      expect(consent.text).toMatch(/<button type="submit" name="decision" value="allow">/);
      expect(consent.text).toMatch(/<button type="submit" name="decision" value="deny">/);
      expect(consent.headers['x-frame-options']).toBe('DENY');
      expect(consent.headers['cache-control']).toBe('no-store');
    });

    it('asks for every scope when the request names none', async () => {
      const { consent } = await consentFor(authorizeParams({ scope: undefined }).params);
      expect(consent.text).toMatch(/value="webhooks:write" checked/);
      expect(consent.text).toMatch(/value="catalog:read" checked/);
    });

    it('allow: redirects with a code and the state; the code buys a token that works on the API', async () => {
      const { params, verifier } = authorizeParams();
      const { agent, csrfToken } = await consentFor(params);
      const allowed = await decide(agent, params, {
        decision: 'allow',
        scopes: ['customers:read', 'orders:read'],
        csrfToken,
      });
      expect(allowed.status).toBe(302);
      const query = redirectQuery(allowed);
      expect(query).toEqual({ code: expect.any(String), state: 'xyz-123' });
      const token = await exchange(query['code']!, verifier);
      expect(token.status).toBe(200);
      expect(token.body.scope).toBe('customers:read orders:read');
      const customers = await request(t.server)
        .get('/v10/customers')
        .set({ Authorization: `Bearer ${token.body.access_token}`, 'X-Service-App-Key': client.appKey });
      expect(customers.status).toBe(200);
    });

    it('narrowed scopes end up on the token, and what was unticked is refused by the API', async () => {
      const { params, verifier } = authorizeParams();
      const { agent, csrfToken } = await consentFor(params);
      const allowed = await decide(agent, params, { decision: 'allow', scopes: ['orders:read'], csrfToken });
      const token = await exchange(redirectQuery(allowed)['code']!, verifier);
      expect(token.body.scope).toBe('orders:read' satisfies Scope);
      const customers = await request(t.server)
        .get('/v10/customers')
        .set({ Authorization: `Bearer ${token.body.access_token}`, 'X-Service-App-Key': client.appKey });
      expect(customers.status).toBe(403);
    });

    it('re-shows the consent page when every scope was unticked, issuing nothing', async () => {
      const { params } = authorizeParams();
      const { agent, csrfToken } = await consentFor(params);
      let ids = await codesIssuedSince(0);
      const response = await decide(agent, params, { decision: 'allow', scopes: [], csrfToken });
      expect(response.status).toBe(400);
      expect(response.text).toContain('Tick at least one permission');
      ids = await codesIssuedSince(ids.lastId);
      expect(ids.issued).toBe(0);
    });

    it('deny: redirects with access_denied and the state, issuing nothing', async () => {
      const { params } = authorizeParams();
      const { agent, csrfToken } = await consentFor(params);
      let ids = await codesIssuedSince(0);
      const denied = await decide(agent, params, { decision: 'deny', scopes: ['orders:read'], csrfToken });
      expect(denied.status).toBe(302);
      expect(redirectQuery(denied)).toEqual({ error: 'access_denied', state: 'xyz-123' });
      ids = await codesIssuedSince(ids.lastId);
      expect(ids.issued).toBe(0);
    });

    it('refuses a consent without the CSRF token or with a wrong one (403), issuing no code', async () => {
      const { params } = authorizeParams();
      const { agent, csrfToken } = await consentFor(params);
      let ids = await codesIssuedSince(0);
      for (const token of ['', `${csrfToken.slice(0, -2)}xx`]) {
        const response = await decide(agent, params, { decision: 'allow', scopes: ['orders:read'], csrfToken: token });
        expect(response.status).toBe(403);
        expect(response.headers['location']).toBeUndefined();
      }
      // A valid token of another session does not do either.
      const other = await consentFor(params);
      const crossed = await decide(agent, params, {
        decision: 'allow',
        scopes: ['orders:read'],
        csrfToken: other.csrfToken,
      });
      expect(crossed.status).toBe(403);
      ids = await codesIssuedSince(ids.lastId);
      expect(ids.issued).toBe(0);
      // The real token still works: the refusals changed nothing.
      const allowed = await decide(agent, params, { decision: 'allow', scopes: ['orders:read'], csrfToken });
      expect(redirectQuery(allowed)).toEqual({ code: expect.any(String), state: 'xyz-123' });
    });

    it('refuses a user of another brand than the app’s: an error page, no session, no code', async () => {
      const { params } = authorizeParams();
      const { loggedIn } = await logInFor(params, otherBrandUserEmail);
      expect(loggedIn.status).toBe(403);
      expect(loggedIn.text).toContain('another brand');
      expect(loggedIn.headers['location']).toBeUndefined();
      expect(setCookies(loggedIn).some((c) => c.startsWith('session='))).toBe(false);
    });

    it('logs out: the session ends and the authorize URL shows the login page again', async () => {
      const { params } = authorizeParams();
      const { agent, csrfToken } = await consentFor(params);
      const loggedOut = await agent
        .post('/oauth/logout')
        .type('form')
        .send(form([...Object.entries(params), ['csrf_token', csrfToken]]));
      expect(loggedOut.status).toBe(303);
      const page = await agent.get(authorizeUrl(params));
      expect(page.text).toContain('action="/oauth/login"');
      // The old token belonged to the ended session: a consent with it is refused.
      const late = await decide(agent, params, { decision: 'allow', scopes: ['orders:read'], csrfToken });
      expect(late.status).toBe(403);
    });
  });
}
