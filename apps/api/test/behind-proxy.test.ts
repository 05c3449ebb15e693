import request from 'supertest';
import { createBrand, createUser } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { TestContext, useTestApp } from './support/test-app';
import { testPasswordHasher } from './support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';
const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** The throttle counter of a client address (the core's key format, `login:address:<address>`). */
const addressThrottleKey = (address: string) => `login:address:${address}`;

/** The login page's cookie header and the CSRF token its form carries. */
async function loginForm(t: TestContext, headers: Record<string, string>) {
  const page = await request(t.server).get('/console/login').set(headers);
  const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const setCookie = ([] as string[]).concat(page.headers['set-cookie'] ?? []);
  return { csrfToken, setCookie, cookie: setCookie.map((c) => c.split(';')[0]).join('; ') };
}

/** The failed log-ins counted on `address` in the open window (counted and taken back, so reading changes nothing). */
async function failuresOn(t: TestContext, address: string): Promise<number> {
  return t.storage.uow.run(async (tx) => {
    const key = addressThrottleKey(address);
    const { attempts, resetAtMs } = await tx.loginAttempts.count(key, FIFTEEN_MINUTES, Date.parse(t.clock.now()));
    await tx.loginAttempts.takeBack(key, resetAtMs);
    return attempts - 1;
  });
}

/** Fails one log-in sent with the given headers. */
async function failLogin(t: TestContext, headers: Record<string, string>): Promise<void> {
  const { csrfToken, cookie } = await loginForm(t, headers);
  const answer = await request(t.server)
    .post('/console/login')
    .set({ ...headers, Cookie: cookie })
    .type('form')
    .send(
      new URLSearchParams({
        csrf_token: csrfToken,
        email: 'anna@north.example',
        password: 'wrong password!',
      }).toString(),
    );
  expect(answer.status).toBe(401);
}

// TRUST_PROXY decides whether X-Forwarded-For and X-Forwarded-Proto are believed: the client
// address failed logins are counted on, and whether console cookies are Secure with the __Host- prefix.
for (const dialect of testDialects()) {
  describe(`behind a proxy [${dialect}]`, () => {
    const direct = useTestApp(dialect);
    const proxied = useTestApp(dialect, { trustProxy: ['loopback'] });

    beforeAll(async () => {
      for (const t of [direct, proxied]) {
        const deps = {
          uow: t.storage.uow,
          clock: t.clock,
          hasher: nodeSecretHasher,
          passwordHasher: testPasswordHasher,
        };
        const brand = await createBrand(deps, { name: 'North', currency: 'EUR' });
        await createUser(deps, { brandId: brand.id, email: 'anna@north.example', name: 'Anna', password: PASSWORD });
      }
    });

    const forwarded = { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https' };

    it('by default believes neither header: cookies stay plain and failures count on the connecting address', async () => {
      const { setCookie } = await loginForm(direct, forwarded);
      expect(setCookie.join('\n')).not.toMatch(/__Host-|Secure/);
      await failLogin(direct, forwarded);
      expect(await failuresOn(direct, '203.0.113.9')).toBe(0);
      const connecting = await Promise.all(['127.0.0.1', '::ffff:127.0.0.1', '::1'].map((a) => failuresOn(direct, a)));
      expect(connecting.reduce((sum, n) => sum + n, 0)).toBe(1);
    });

    it('with a trusted proxy counts failures on the forwarded client and sets Secure __Host- cookies over forwarded TLS', async () => {
      const { setCookie } = await loginForm(proxied, forwarded);
      expect(setCookie.join('\n')).toMatch(/^__Host-[^=]+=[^;]+;.*Secure/m);
      await failLogin(proxied, forwarded);
      await failLogin(proxied, { 'X-Forwarded-For': '198.51.100.7' });
      expect(await failuresOn(proxied, '203.0.113.9')).toBe(1);
      expect(await failuresOn(proxied, '198.51.100.7')).toBe(1);
    });
  });
}
