// @slow: starts a real Chromium beside the jest workers; started first (tooling/config/jest-sequencer.js).
import { createHash, randomBytes } from 'node:crypto';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApiApp, createBrand, createUser } from '@brand/core';
import { oneTestDialect } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { saveScreenshot, useBrowser } from './support/browser';
import { closeServer, useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

/**
 * A client app on the user's machine (RFC 8252 loopback redirect): it receives the browser at
 * /callback and records the query it was sent.
 */
async function startLoopbackClient(): Promise<{ server: Server; redirectUri: string; received: URLSearchParams[] }> {
  const received: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url.searchParams);
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('The app received the answer; you can close this tab.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, redirectUri: `http://127.0.0.1:${port}/callback`, received };
}

// The whole authorization code flow as a user goes through it, in the system Chromium: the app
// sends the browser to /oauth/authorize, the user logs in by typing, sees the consent page and
// decides; the app's loopback server receives the answer. The pages' rules (every parameter
// error, CSRF, brands) are tested without a browser in oauth-authorize.test.ts. One dialect.
for (const dialect of oneTestDialect()) {
  describe(`OAuth 2.0 authorization in a real browser [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const browser = useBrowser();
    let client: Awaited<ReturnType<typeof startLoopbackClient>>;
    let app: { clientId: string; appKey: string };
    const baseUrl = () => `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;

    beforeAll(async () => {
      client = await startLoopbackClient();
      const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher, passwordHasher: testPasswordHasher };
      const brand = await createBrand(deps, { name: 'North Shoes', currency: 'EUR' });
      await createUser(deps, { brandId: brand.id, email: 'anna@north.example', name: 'Anna Berg', password: PASSWORD });
      const created = await createApiApp(deps, {
        brandId: brand.id,
        name: 'Warehouse ERP',
        redirectUris: [client.redirectUri],
      });
      app = { clientId: created.app.clientId, appKey: created.appKey };
    });
    afterAll(async () => {
      if (client) await closeServer(client.server);
    });

    /** The app's side of the start: a PKCE pair and state kept, the authorize URL the browser is sent to. */
    function startAuthorization() {
      const verifier = randomBytes(32).toString('base64url');
      const state = randomBytes(8).toString('hex');
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: client.redirectUri,
        scope: 'customers:read orders:read',
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      });
      return { url: `${baseUrl()}/oauth/authorize?${params}`, verifier, state };
    }

    async function logInAndReachConsent(url: string, screenshots: boolean) {
      const page = await browser.newPage();
      await page.goto(url);
      await page.getByLabel('Email').fill('anna@north.example');
      await page.getByLabel('Password').fill(PASSWORD);
      if (screenshots) await saveScreenshot(page, 'oauth-login');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: /Allow Warehouse ERP to use North Shoes/ }).waitFor();
      return page;
    }

    it('logs in, allows, and the app exchanges the code for a token that reads customers', async () => {
      const { url, verifier, state } = startAuthorization();
      const page = await logInAndReachConsent(url, true);
      expect(await page.getByRole('checkbox', { name: /Customers: read/ }).isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: /Orders: read/ }).isChecked()).toBe(true);
      await saveScreenshot(page, 'oauth-consent');

      await page.getByRole('button', { name: 'Allow' }).click();
      await page.getByText('The app received the answer').waitFor();
      const answer = client.received.at(-1)!;
      expect(answer.get('state')).toBe(state);
      expect(answer.get('error')).toBeNull();
      const code = answer.get('code');
      expect(code).toEqual(expect.any(String));

      const token = await request(t.server).post('/oauth/token').type('form').send({
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirectUri,
        code_verifier: verifier,
        client_id: app.clientId,
        client_secret: app.appKey,
      });
      expect(token.status).toBe(200);
      expect(token.body.scope).toBe('customers:read orders:read');
      const customers = await request(t.server)
        .get('/v10/customers')
        .set({ Authorization: `Bearer ${token.body.access_token}`, 'X-Service-App-Key': app.appKey });
      expect(customers.status).toBe(200);
    });

    it('logs in and denies: the app receives access_denied with its state, and no code', async () => {
      const { url, state } = startAuthorization();
      const page = await logInAndReachConsent(url, false);
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.getByText('The app received the answer').waitFor();
      const answer = client.received.at(-1)!;
      expect(Object.fromEntries(answer)).toEqual({ error: 'access_denied', state });
    });
  });
}
