import { authenticateOAuthClient } from '../identity/authenticate-oauth-client';
import { createApiApp } from '../identity/create-api-app';
import { createUser } from '../identity/create-user';
import { findOAuthClient } from '../identity/find-oauth-client';
import { logIn } from '../identity/log-in';
import { LoginThrottlePolicy, accountThrottleKey } from '../identity/login-rules';
import { rotateApiAppKey } from '../identity/rotate-api-app-key';
import { setRedirectUris } from '../identity/set-redirect-uris';
import { setUserPassword } from '../identity/set-user-password';
import { FixedClock } from '../shared/clock.ports';
import { isDomainError } from '../shared/errors';
import { contractBuilders } from './contract-builders';
import { ContractStorage, SLOW, useContractStorage } from './contract-support';
import { FakePasswordHasher } from './fake-password-hasher';
import { FakeSecretHasher } from './fake-secret-hasher';

const T0 = '2026-09-01T08:00:00.000Z';
const MINUTE = 60_000;
const PASSWORD = 'correct horse battery staple';

/** The code of the DomainError `outcome` rejects with. */
async function codeOf(outcome: Promise<unknown>): Promise<string> {
  try {
    await outcome;
  } catch (error) {
    if (isDomainError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a DomainError');
}

/**
 * The contract of credentials on every storage adapter: users' passwords and login e-mails
 * (unique across brands, also under parallel writes), the counters of log-in attempts (exact
 * under parallel attempts, fixed windows), and apps as OAuth clients (client ids, redirect URIs,
 * never another brand's). Through the use cases, with fast fake hashers.
 *
 * @example
 * describeCredentialsContract('in-memory credentials', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeCredentialsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const clock = new FixedClock(T0);
    const hasher = new FakeSecretHasher();
    const passwordHasher = new FakePasswordHasher();
    const deps = () => ({ uow: uow(), clock, hasher, passwordHasher });
    let emails = 0;
    /** An address no other test uses: the login e-mails are unique across the whole database. */
    const freshEmail = (label = 'user') => `${label}.${++emails}.${Math.random().toString(36).slice(2)}@brand.example`;
    let addresses = 0;
    const freshAddress = () => `203.0.113.${++addresses}-${Math.random().toString(36).slice(2)}`;

    const { aBrand } = contractBuilders(uow, { at: T0, brandLabel: 'Credentials brand' });

    describe('passwords', () => {
      it('stores a password hash under the lower-case e-mail, found from any brand, and leaves the user as it was', async () => {
        const brand = await aBrand();
        const email = freshEmail('Anna');
        const user = await createUser(deps(), { brandId: brand.id, email, name: 'Anna', password: PASSWORD });

        const found = await uow().read((r) => r.users.findByLoginEmail(email.toLowerCase()));

        expect(found?.user).toStrictEqual(user);
        expect(found?.passwordHash).toMatch(/^fake\$/);
        expect(await passwordHasher.verify(PASSWORD, found!.passwordHash)).toBe(true);
        expect(await uow().read((r) => r.users.findById(user.brandId, user.id))).toStrictEqual(user);
        expect(await uow().read((r) => r.users.findByLoginEmail(email))).toBeNull();
      });

      it('finds no login for a user without a password', async () => {
        const brand = await aBrand();
        const email = freshEmail();
        await createUser(deps(), { brandId: brand.id, email, name: 'Token holder' });

        expect(await uow().read((r) => r.users.findByLoginEmail(email))).toBeNull();
      });

      it('sets no password on a user of another brand, and says so', async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const email = freshEmail();
        const user = await createUser(deps(), { brandId: brand.id, email, name: 'Anna' });

        const stored = await uow().run((tx) =>
          tx.users.setPassword(other.id, user.id, { passwordHash: 'fake$1$0$x', loginEmail: email }),
        );

        expect(stored).toBe(false);
        expect(await uow().read((r) => r.users.findByLoginEmail(email))).toBeNull();
      });

      it('replaces a password: the old one stops working, the new one works', async () => {
        const brand = await aBrand();
        const email = freshEmail();
        const user = await createUser(deps(), { brandId: brand.id, email, name: 'Anna', password: PASSWORD });

        await setUserPassword(deps(), { userId: user.id, password: 'a brand new passphrase' });

        const clientAddress = freshAddress();
        expect(await codeOf(logIn(deps(), { email, password: PASSWORD, clientAddress }))).toBe('invalid_credentials');
        await expect(
          logIn(deps(), { email, password: 'a brand new passphrase', clientAddress }),
        ).resolves.toStrictEqual(user);
      });

      it('lets users of two brands share an e-mail address, but only one of them log in with it', async () => {
        const email = freshEmail();
        const first = await aBrand();
        const second = await aBrand();
        await createUser(deps(), { brandId: first.id, email, name: 'Anna', password: PASSWORD });
        const tokenHolder = await createUser(deps(), { brandId: second.id, email: email.toUpperCase(), name: 'Anna' });

        expect(
          await codeOf(createUser(deps(), { brandId: second.id, email, name: 'Anna again', password: PASSWORD })),
        ).toBe('duplicate');
        expect(await codeOf(setUserPassword(deps(), { userId: tokenHolder.id, password: PASSWORD }))).toBe('duplicate');
        expect((await uow().read((r) => r.users.findByLoginEmail(email)))?.user.brandId).toBe(first.id);
      });

      it(
        'of 10 parallel creations of users logging in with one e-mail address, one succeeds and 9 are duplicates',
        async () => {
          const brand = await aBrand();
          const email = freshEmail();

          const results = await Promise.allSettled(
            Array.from({ length: 10 }, (_, i) =>
              createUser(deps(), { brandId: brand.id, email, name: `Racer ${i}`, password: PASSWORD }),
            ),
          );

          const created = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
          const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
          expect(created).toHaveLength(1);
          expect(refused.map((reason) => (isDomainError(reason) ? reason.code : String(reason)))).toEqual(
            Array(9).fill('duplicate'),
          );
          expect((await uow().read((r) => r.users.findByLoginEmail(email)))?.user).toStrictEqual(created[0]);
        },
        SLOW,
      );
    });

    describe('log-in attempts', () => {
      const WINDOW = 15 * MINUTE;
      const at = Date.parse(T0);
      const key = () => `login:test:${Math.random().toString(36).slice(2)}`;

      it('opens a window with the first attempt, counts in it, and opens a new one once it has closed', async () => {
        const k = key();
        const count = (nowMs: number) => uow().run((tx) => tx.loginAttempts.count(k, WINDOW, nowMs));

        expect(await count(at)).toEqual({ attempts: 1, resetAtMs: at + WINDOW });
        expect(await count(at + 5 * MINUTE)).toEqual({ attempts: 2, resetAtMs: at + WINDOW });
        expect(await count(at + WINDOW - 1)).toEqual({ attempts: 3, resetAtMs: at + WINDOW });
        expect(await count(at + WINDOW)).toEqual({ attempts: 1, resetAtMs: at + 2 * WINDOW });
      });

      it('takes an attempt back only from the window it was counted in, never below zero, and forgets on clear', async () => {
        const k = key();
        const count = (nowMs: number) => uow().run((tx) => tx.loginAttempts.count(k, WINDOW, nowMs));
        const takeBack = (resetAtMs: number) => uow().run((tx) => tx.loginAttempts.takeBack(k, resetAtMs));
        await count(at);
        await count(at);

        await takeBack(at + WINDOW);
        await takeBack(at + 2 * WINDOW);
        expect(await count(at)).toEqual({ attempts: 2, resetAtMs: at + WINDOW });

        await takeBack(at + WINDOW);
        await takeBack(at + WINDOW);
        await takeBack(at + WINDOW);
        expect(await count(at)).toEqual({ attempts: 1, resetAtMs: at + WINDOW });

        await uow().run((tx) => tx.loginAttempts.clear(k));
        expect(await count(at + MINUTE)).toEqual({ attempts: 1, resetAtMs: at + MINUTE + WINDOW });
      });

      it('keeps the counters of two keys apart', async () => {
        const [a, b] = [key(), key()];
        await uow().run((tx) => tx.loginAttempts.count(a, WINDOW, at));

        expect(await uow().run((tx) => tx.loginAttempts.count(b, WINDOW, at))).toEqual({
          attempts: 1,
          resetAtMs: at + WINDOW,
        });
      });

      it(
        'counts each of 20 parallel attempts exactly once: they see 1 to 20, the next one 21',
        async () => {
          const k = key();

          const counted = await Promise.all(
            Array.from({ length: 20 }, () => uow().run((tx) => tx.loginAttempts.count(k, WINDOW, at))),
          );

          expect(counted.map((c) => c.attempts).sort((x, y) => x - y)).toEqual(
            Array.from({ length: 20 }, (_, i) => i + 1),
          );
          expect(await uow().run((tx) => tx.loginAttempts.count(k, WINDOW, at))).toEqual({
            attempts: 21,
            resetAtMs: at + WINDOW,
          });
        },
        SLOW,
      );

      it(
        'counts 20 parallel failed log-ins from one address exactly: all checked, the 21st refused',
        async () => {
          const brand = await aBrand();
          const clientAddress = freshAddress();
          const policy: LoginThrottlePolicy = { failuresPerAccount: 100, failuresPerAddress: 20, windowMs: WINDOW };
          const accounts = await Promise.all(
            Array.from({ length: 4 }, () =>
              createUser(deps(), { brandId: brand.id, email: freshEmail(), name: 'Target', password: PASSWORD }),
            ),
          );

          const outcomes = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              codeOf(
                logIn(
                  { ...deps(), throttle: policy },
                  { email: accounts[i % 4]!.email, password: 'wrong guess number', clientAddress },
                ),
              ),
            ),
          );

          expect(outcomes).toEqual(Array(20).fill('invalid_credentials'));
          expect(
            await codeOf(
              logIn({ ...deps(), throttle: policy }, { email: accounts[0]!.email, password: PASSWORD, clientAddress }),
            ),
          ).toBe('too_many_login_attempts');
        },
        SLOW,
      );

      it(
        'of 30 parallel failed log-ins for one account checks exactly 5 passwords and refuses 25',
        async () => {
          const brand = await aBrand();
          const email = freshEmail();
          await createUser(deps(), { brandId: brand.id, email, name: 'Target', password: PASSWORD });
          const checksBefore = passwordHasher.verifications;

          const outcomes = await Promise.all(
            Array.from({ length: 30 }, () =>
              codeOf(logIn(deps(), { email, password: 'wrong guess number', clientAddress: freshAddress() })),
            ),
          );

          expect(outcomes.filter((code) => code === 'invalid_credentials')).toHaveLength(5);
          expect(outcomes.filter((code) => code === 'too_many_login_attempts')).toHaveLength(25);
          expect(passwordHasher.verifications - checksBefore).toBe(5);
          // The refused attempts made no guess and were not counted: the window holds the 5 failures.
          const account = await uow().run((tx) => tx.loginAttempts.count(accountThrottleKey(email), WINDOW, at));
          expect(account.attempts).toBe(6);
        },
        SLOW,
      );
    });

    describe('apps as OAuth clients', () => {
      it('gives every app its own client id, by which it is found from any brand', async () => {
        const brand = await aBrand();
        const { app } = await createApiApp(deps(), { brandId: brand.id, name: 'ERP' });
        const { app: other } = await createApiApp(deps(), { brandId: brand.id, name: 'Webshop' });

        expect(app.clientId).toMatch(/^app_/);
        expect(other.clientId).not.toBe(app.clientId);
        expect(await uow().read((r) => r.apiApps.findByClientId(app.clientId))).toStrictEqual(app);
        expect(await uow().read((r) => r.apiApps.findById(app.brandId, app.id))).toStrictEqual(app);
        expect(await uow().read((r) => r.apiApps.findByClientId('app_nobodyhasthisclientid'))).toBeNull();
        expect(await uow().read((r) => r.apiApps.findByClientId(app.clientId.toUpperCase()))).toBeNull();
      });

      it('keeps the redirect URIs an app registers, in order, and replaces them as a whole', async () => {
        const brand = await aBrand();
        const { app } = await createApiApp(deps(), {
          brandId: brand.id,
          name: 'ERP',
          redirectUris: ['https://erp.example.com/oauth/callback', 'http://127.0.0.1:8400/callback'],
        });

        expect(await findOAuthClient(deps(), { clientId: app.clientId })).toStrictEqual({
          app,
          redirectUris: ['https://erp.example.com/oauth/callback', 'http://127.0.0.1:8400/callback'],
        });

        await setRedirectUris(deps(), {
          brandId: brand.id,
          appId: app.id,
          redirectUris: ['https://erp.example.com/v2/callback', 'https://erp.example.com/oauth/callback'],
        });
        expect((await findOAuthClient(deps(), { clientId: app.clientId }))?.redirectUris).toEqual([
          'https://erp.example.com/v2/callback',
          'https://erp.example.com/oauth/callback',
        ]);

        await setRedirectUris(deps(), { brandId: brand.id, appId: app.id, redirectUris: [] });
        expect((await findOAuthClient(deps(), { clientId: app.clientId }))?.redirectUris).toEqual([]);
      });

      it("never shows or changes one brand's redirect URIs for another brand", async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const { app } = await createApiApp(deps(), {
          brandId: brand.id,
          name: 'ERP',
          redirectUris: ['https://erp.example.com/callback'],
        });

        expect(await uow().read((r) => r.apiApps.findRedirectUris(other.id, app.id))).toEqual([]);
        expect(
          await codeOf(
            setRedirectUris(deps(), { brandId: other.id, appId: app.id, redirectUris: ['https://evil.example/cb'] }),
          ),
        ).toBe('not_found');
        expect(await uow().read((r) => r.apiApps.findRedirectUris(brand.id, app.id))).toEqual([
          'https://erp.example.com/callback',
        ]);
      });

      it('authenticates a client by its app key, and refuses another key or an unknown client alike', async () => {
        const brand = await aBrand();
        const { app, appKey } = await createApiApp(deps(), { brandId: brand.id, name: 'ERP' });
        const { appKey: otherKey } = await createApiApp(deps(), { brandId: brand.id, name: 'Webshop' });

        await expect(
          authenticateOAuthClient(deps(), { clientId: app.clientId, clientSecret: appKey }),
        ).resolves.toStrictEqual(app);
        const refusals = await Promise.all([
          codeOf(authenticateOAuthClient(deps(), { clientId: app.clientId, clientSecret: otherKey })),
          codeOf(authenticateOAuthClient(deps(), { clientId: 'app_unknown', clientSecret: appKey })),
        ]);
        expect(refusals).toEqual(['invalid_credentials', 'invalid_credentials']);
      });

      it('rotates a key: the new one authenticates, the old one no longer, and the credentials revision advances with the commit only', async () => {
        const brand = await aBrand();
        const { app, appKey: oldKey } = await createApiApp(deps(), { brandId: brand.id, name: 'ERP' });
        const revision = () => uow().read((r) => r.accessTokens.credentialsRevision());
        const before = await revision();

        await expect(
          uow().run(async (tx) => {
            await tx.apiApps.replaceAppKeyHash(brand.id, app.id, hasher.hash('rolled-back-key'));
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await revision()).toBe(before);
        expect(await uow().read((r) => r.apiApps.findById(app.brandId, app.id))).toStrictEqual(app);

        const { appKey: newKey } = await rotateApiAppKey(deps(), { brandId: brand.id, appId: app.id });

        expect(newKey).not.toBe(oldKey);
        expect(await revision()).toBeGreaterThan(before);
        expect(await uow().read((r) => r.apiApps.findById(app.brandId, app.id))).toStrictEqual({
          ...app,
          appKeyHash: hasher.hash(newKey),
        });
        await expect(
          authenticateOAuthClient(deps(), { clientId: app.clientId, clientSecret: newKey }),
        ).resolves.toMatchObject({ id: app.id });
        expect(await codeOf(authenticateOAuthClient(deps(), { clientId: app.clientId, clientSecret: oldKey }))).toBe(
          'invalid_credentials',
        );
      });

      it("never rotates one brand's app key for another brand, and leaves the revision alone", async () => {
        const brand = await aBrand();
        const other = await aBrand();
        const { app, appKey } = await createApiApp(deps(), { brandId: brand.id, name: 'ERP' });
        const before = await uow().read((r) => r.accessTokens.credentialsRevision());

        expect(await uow().run((tx) => tx.apiApps.replaceAppKeyHash(other.id, app.id, hasher.hash('x')))).toBe(false);
        expect(await codeOf(rotateApiAppKey(deps(), { brandId: other.id, appId: app.id }))).toBe('not_found');
        expect(await codeOf(rotateApiAppKey(deps(), { appId: 987_654_321 }))).toBe('not_found');

        expect(await uow().read((r) => r.accessTokens.credentialsRevision())).toBe(before);
        expect(await uow().read((r) => r.apiApps.findById(app.brandId, app.id))).toStrictEqual(app);
        await expect(
          authenticateOAuthClient(deps(), { clientId: app.clientId, clientSecret: appKey }),
        ).resolves.toMatchObject({ id: app.id });
      });
    });
  });
}
