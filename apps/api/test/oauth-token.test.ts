import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import {
  ALL_SCOPES,
  DomainError,
  Scope,
  createApiApp,
  createBrand,
  createUser,
  issueAuthorizationCode,
} from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { buildApp, useTestApp } from './support/test-app';

const REDIRECT_URI = 'https://erp.example/callback';

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const basic = (clientId: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

for (const dialect of testDialects()) {
  describe(`OAuth 2.0 token, revocation and metadata endpoints [${dialect}]`, () => {
    const t = useTestApp(dialect);
    let client: { brandId: number; userId: number; appId: number; clientId: string; appKey: string };
    let other: { appId: number; clientId: string; appKey: string };

    beforeAll(async () => {
      const deps = { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher };
      const brand = await createBrand(deps, { name: 'OAuth brand', currency: 'EUR' });
      const user = await createUser(deps, { brandId: brand.id, email: 'oauth@brand.example', name: 'Admin' });
      const created = await createApiApp(deps, { brandId: brand.id, name: 'ERP', redirectUris: [REDIRECT_URI] });
      client = {
        brandId: brand.id,
        userId: user.id,
        appId: created.app.id,
        clientId: created.app.clientId,
        appKey: created.appKey,
      };
      const second = await createApiApp(deps, { brandId: brand.id, name: 'Shop', redirectUris: [REDIRECT_URI] });
      other = { appId: second.app.id, clientId: second.app.clientId, appKey: second.appKey };
    });

    async function codeFor(options: { appId?: number; scopes?: Scope[] } = {}) {
      const pkce = pkcePair();
      const { code } = await issueAuthorizationCode(
        { uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher },
        {
          brandId: client.brandId,
          userId: client.userId,
          appId: options.appId ?? client.appId,
          redirectUri: REDIRECT_URI,
          ...(options.scopes ? { scopes: options.scopes } : {}),
          codeChallenge: pkce.challenge,
          codeChallengeMethod: 'S256',
        },
      );
      return { code, verifier: pkce.verifier };
    }

    const token = (form: Record<string, string>, authorization?: string) => {
      const req = request(t.server).post('/oauth/token').type('form');
      if (authorization) req.set('Authorization', authorization);
      return req.send(form);
    };

    const exchange = (code: string, verifier: string) =>
      token(
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
        basic(client.clientId, client.appKey),
      );

    const customers = (accessToken: string, appKey = client.appKey) =>
      request(t.server)
        .get('/v10/customers')
        .set({ Authorization: `Bearer ${accessToken}`, 'X-Service-App-Key': appKey });

    const revoke = (form: Record<string, string>) =>
      request(t.server)
        .post('/oauth/revoke')
        .type('form')
        .set('Authorization', basic(client.clientId, client.appKey))
        .send(form);

    const expectOAuthError = (response: request.Response, status: number, error: string): void => {
      expect({ status: response.status, error: response.body.error }).toEqual({ status, error });
      expect(response.body).toEqual({ error, error_description: expect.any(String) });
      expect(response.body).not.toHaveProperty('errors');
    };

    it('exchanges a code (client by HTTP Basic) for tokens that work on the API, with no-store', async () => {
      const { code, verifier } = await codeFor();
      const response = await exchange(code, verifier);
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: expect.any(String),
        scope: ALL_SCOPES.join(' '),
      });
      const api = await customers(response.body.access_token);
      expect(api.status).toBe(200);
    });

    it('exchanges a code with the client credentials in the body, and enforces the scopes granted', async () => {
      const { code, verifier } = await codeFor({ scopes: ['catalog:read'] });
      const response = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: client.clientId,
        client_secret: client.appKey,
      });
      expect(response.status).toBe(200);
      expect(response.body.scope).toBe('catalog:read');
      const api = await customers(response.body.access_token);
      expect(api.status).toBe(403);
    });

    it('refuses a wrong code verifier, and the code is spent by the attempt', async () => {
      const { code, verifier } = await codeFor();
      expectOAuthError(await exchange(code, pkcePair().verifier), 400, 'invalid_grant');
      expectOAuthError(await exchange(code, verifier), 400, 'invalid_grant');
    });

    it('refuses a token request without the code verifier', async () => {
      const { code } = await codeFor();
      const response = await token(
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
        basic(client.clientId, client.appKey),
      );
      expectOAuthError(response, 400, 'invalid_grant');
    });

    it('refuses a reused code and revokes the tokens its first use issued', async () => {
      const { code, verifier } = await codeFor();
      const first = await exchange(code, verifier);
      expect(first.status).toBe(200);
      expect((await customers(first.body.access_token)).status).toBe(200);
      expectOAuthError(await exchange(code, verifier), 400, 'invalid_grant');
      expect((await customers(first.body.access_token)).status).toBe(401);
      const refreshed = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
        basic(client.clientId, client.appKey),
      );
      expectOAuthError(refreshed, 400, 'invalid_grant');
    });

    it('refuses a code after its 10 minutes', async () => {
      const { code, verifier } = await codeFor();
      t.clock.advance(10 * 60 * 1000 + 1000);
      expectOAuthError(await exchange(code, verifier), 400, 'invalid_grant');
    });

    it("refuses another client's code", async () => {
      const { code, verifier } = await codeFor({ appId: other.appId });
      expectOAuthError(await exchange(code, verifier), 400, 'invalid_grant');
    });

    it('refuses a redirect_uri other than the one the code was issued for', async () => {
      const { code, verifier } = await codeFor();
      const response = await token(
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'https://erp.example/other',
          code_verifier: verifier,
        },
        basic(client.clientId, client.appKey),
      );
      expectOAuthError(response, 400, 'invalid_grant');
      expect(response.body.error_description).toContain('redirect_uri');
    });

    it('answers 401 invalid_client with a Basic challenge for a wrong secret, 400 invalid_client in the body', async () => {
      const { code, verifier } = await codeFor();
      const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
      const viaBasic = await token(form, basic(client.clientId, other.appKey));
      expectOAuthError(viaBasic, 401, 'invalid_client');
      expect(viaBasic.headers['www-authenticate']).toMatch(/^Basic /);
      const viaBody = await token({ ...form, client_id: client.clientId, client_secret: 'wrong' });
      expectOAuthError(viaBody, 400, 'invalid_client');
      const unknown = await token({ ...form, client_id: 'no-such-client', client_secret: client.appKey });
      expectOAuthError(unknown, 400, 'invalid_client');
      const noSecret = await token({ ...form, client_id: client.clientId });
      expectOAuthError(noSecret, 400, 'invalid_client');
      // The code was never reached, so it still works.
      expect((await exchange(code, verifier)).status).toBe(200);
    });

    it('rotates refresh tokens: the old one is spent, and presenting it again revokes the grant', async () => {
      const { code, verifier } = await codeFor();
      const first = await exchange(code, verifier);
      const refresh = (refreshToken: string, scope?: string) =>
        token(
          { grant_type: 'refresh_token', refresh_token: refreshToken, ...(scope ? { scope } : {}) },
          basic(client.clientId, client.appKey),
        );
      const second = await refresh(first.body.refresh_token);
      expect(second.status).toBe(200);
      expect(second.headers['cache-control']).toBe('no-store');
      expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
      expect((await customers(second.body.access_token)).status).toBe(200);

      expectOAuthError(await refresh(first.body.refresh_token), 400, 'invalid_grant');
      expect((await customers(second.body.access_token)).status).toBe(401);
      expectOAuthError(await refresh(second.body.refresh_token), 400, 'invalid_grant');
    });

    it('narrows the scopes on refresh and refuses to widen them', async () => {
      const { code, verifier } = await codeFor({ scopes: ['customers:read', 'catalog:read'] });
      const first = await exchange(code, verifier);
      const auth = basic(client.clientId, client.appKey);
      const widened = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, scope: 'customers:read orders:write' },
        auth,
      );
      expectOAuthError(widened, 400, 'invalid_scope');
      const narrowed = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, scope: 'catalog:read' },
        auth,
      );
      // A refused widening leaves the refresh token unspent: the client may retry within the grant.
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.scope).toBe('catalog:read');
      expect((await customers(narrowed.body.access_token)).status).toBe(403);
      const { code: code2, verifier: verifier2 } = await codeFor({ scopes: ['customers:read', 'catalog:read'] });
      const fresh = await exchange(code2, verifier2);
      const narrowedFresh = await token(
        { grant_type: 'refresh_token', refresh_token: fresh.body.refresh_token, scope: 'catalog:read' },
        auth,
      );
      expect(narrowedFresh.status).toBe(200);
      expect(narrowedFresh.body.scope).toBe('catalog:read');
      expect((await customers(narrowedFresh.body.access_token)).status).toBe(403);
    });

    it('revokes an access token (the next API call is 401) and a refresh token (its whole grant)', async () => {
      const { code, verifier } = await codeFor();
      const first = await exchange(code, verifier);
      const revoked = await revoke({ token: first.body.access_token, token_type_hint: 'access_token' });
      expect(revoked.status).toBe(200);
      expect(revoked.text).toBe('');
      expect((await customers(first.body.access_token)).status).toBe(401);

      const { code: code2, verifier: verifier2 } = await codeFor();
      const second = await exchange(code2, verifier2);
      expect((await revoke({ token: second.body.refresh_token })).status).toBe(200);
      expect((await customers(second.body.access_token)).status).toBe(401);
      const refreshed = await token(
        { grant_type: 'refresh_token', refresh_token: second.body.refresh_token },
        basic(client.clientId, client.appKey),
      );
      expectOAuthError(refreshed, 400, 'invalid_grant');
    });

    it('answers 200 for an unknown token, and 401 invalid_client without valid client credentials', async () => {
      const unknown = await revoke({ token: 'no-such-token' });
      expect(unknown.status).toBe(200);
      const anonymous = await request(t.server).post('/oauth/revoke').type('form').send({ token: 'x' });
      expectOAuthError(anonymous, 401, 'invalid_client');
      const wrong = await request(t.server)
        .post('/oauth/revoke')
        .type('form')
        .set('Authorization', basic(client.clientId, 'wrong'))
        .send({ token: 'x' });
      expectOAuthError(wrong, 401, 'invalid_client');
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
    });

    it('refuses grant types other than authorization_code and refresh_token', async () => {
      for (const grantType of ['password', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']) {
        const response = await token(
          { grant_type: grantType, username: 'a', password: 'b' },
          basic(client.clientId, client.appKey),
        );
        expectOAuthError(response, 400, 'unsupported_grant_type');
      }
    });

    it('takes forms only: a JSON body is an invalid_request, not a JSON:API error', async () => {
      const { code, verifier } = await codeFor();
      const response = await request(t.server)
        .post('/oauth/token')
        .set('Authorization', basic(client.clientId, client.appKey))
        .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
      expectOAuthError(response, 400, 'invalid_request');
      const tooLarge = await token({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(20_000) });
      expectOAuthError(tooLarge, 413, 'invalid_request');
    });

    it('limits token requests per client address, answering an RFC 6749 error with Retry-After', async () => {
      const limited = buildApp(t.storage, t.clock, { config: { oauthTokenRateLimitMax: 2 } });
      const form = { grant_type: 'refresh_token', refresh_token: 'unknown' };
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await request(limited).post('/oauth/token').type('form').send(form));
      const last = answers[2]!;
      expect(last.status).toBe(429);
      expect(last.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.stringContaining('at most 2'),
      });
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('answers a database outage with 503 temporarily_unavailable and a bug with 500 server_error', async () => {
      const failingWith = (error: Error) => {
        const fail = async (): Promise<never> => {
          throw error;
        };
        return buildApp({ ...t.storage, uow: { read: fail, run: fail } }, t.clock);
      };
      const form = {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: client.clientId,
        client_secret: client.appKey,
      };
      const outage = failingWith(new DomainError('storage_unavailable', 'The database cannot serve this request'));
      const down = await request(outage).post('/oauth/token').type('form').send(form);
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      const revokeDown = await request(outage)
        .post('/oauth/revoke')
        .type('form')
        .send({ token: 'x', client_id: client.clientId, client_secret: client.appKey });
      expect(revokeDown.status).toBe(503);

      const bug = await request(failingWith(new Error('boom')))
        .post('/oauth/token')
        .type('form')
        .send(form);
      expect(bug.status).toBe(500);
      expect(bug.body).toEqual({ error: 'server_error' });
    });

    it('answers maintenance with 503 temporarily_unavailable, not the JSON:API envelope', async () => {
      const inMaintenance = buildApp(t.storage, t.clock, { config: { maintenanceMode: true } });
      const response = await request(inMaintenance)
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'refresh_token' });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    });

    it('publishes the RFC 8414 metadata document', async () => {
      const response = await request(t.server).get('/.well-known/oauth-authorization-server');
      expect(response.status).toBe(200);
      const issuer = `http://${response.request.url.split('/')[2]}`;
      expect(response.body).toEqual({
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: [...ALL_SCOPES],
      });
    });
  });
}
