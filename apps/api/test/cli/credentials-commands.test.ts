import { DomainError, findOAuthClient, isDomainError, logIn, systemClock, User } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { brand, brandJson, CliTestDatabase, openCliTestDatabase } from './cli-test-support';
import { testPasswordHasher } from '../support/test-password-hasher';

const PASSWORD = 'correct horse battery staple';

for (const dialect of testDialects()) {
  describe(`brand CLI passwords and OAuth clients [${dialect}]`, () => {
    let db: CliTestDatabase;
    let emails = 0;
    /** Login e-mails are unique across brands, and every test shares the database. */
    const freshEmail = () => `ops${++emails}@atelier-nord.example`;

    beforeAll(async () => {
      db = await openCliTestDatabase(dialect);
    });

    afterAll(async () => {
      await db.close();
    });

    async function aBrand(): Promise<string> {
      const { brand_id } = await brandJson(db.url, 'create-brand', '--name', 'Atelier Nord', '--currency', 'EUR');
      return String(brand_id);
    }

    async function logInAs(email: string, password: string): Promise<User> {
      const storage = await db.storage();
      return logIn(
        { uow: storage.uow, clock: systemClock, passwordHasher: testPasswordHasher },
        { email, password, clientAddress: '127.0.0.1' },
      );
    }

    async function logInFailure(email: string, password: string): Promise<DomainError> {
      try {
        await logInAs(email, password);
      } catch (error) {
        if (isDomainError(error)) return error;
        throw error;
      }
      throw new Error('the log-in succeeded');
    }

    it('creates a user with --password who then logs in, and prints the password nowhere', async () => {
      const brandId = await aBrand();
      const email = freshEmail();

      const run = await brand(
        db.url,
        'create-user',
        '--brand',
        brandId,
        '--email',
        email,
        '--name',
        'Olga Ops',
        '--password',
        PASSWORD,
        '--json',
      );

      expect(run.code).toBe(0);
      const created = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(created).toMatchObject({ user_id: expect.any(Number), email, can_log_in: true });
      expect(run.stdout + run.stderr).not.toContain(PASSWORD);
      await expect(logInAs(email.toUpperCase(), PASSWORD)).resolves.toMatchObject({
        id: created.user_id,
        brandId: Number(brandId),
      });
    });

    it('creates a user without --password who cannot log in', async () => {
      const brandId = await aBrand();
      const email = freshEmail();

      const created = await brandJson(db.url, 'create-user', '--brand', brandId, '--email', email, '--name', 'Tom');

      expect(created.can_log_in).toBe(false);
      expect((await logInFailure(email, PASSWORD)).code).toBe('invalid_credentials');
    });

    it('sets a password with set-password: the user logs in with it, and with no earlier one', async () => {
      const brandId = await aBrand();
      const email = freshEmail();
      const user = await brandJson(db.url, 'create-user', '--brand', brandId, '--email', email, '--name', 'Tom');

      const first = await brandJson(db.url, 'set-password', '--user', String(user.user_id), '--password', PASSWORD);
      await brandJson(db.url, 'set-password', '--user', String(user.user_id), '--password', 'a second passphrase');

      expect(first).toEqual({ user_id: user.user_id, brand_id: Number(brandId), email, password_set: true });
      expect((await logInFailure(email, PASSWORD)).code).toBe('invalid_credentials');
      await expect(logInAs(email, 'a second passphrase')).resolves.toMatchObject({ id: user.user_id });
    });

    it('prints a line for people without --json, naming the user and not the password', async () => {
      const brandId = await aBrand();
      const email = freshEmail();
      const user = await brandJson(db.url, 'create-user', '--brand', brandId, '--email', email, '--name', 'Tom');

      const run = await brand(db.url, 'set-password', '--user', String(user.user_id), '--password', PASSWORD);

      expect(run).toEqual({
        code: 0,
        stdout: `Set the password of user ${String(user.user_id)} <${email}>; they log in with that e-mail address.\n`,
        stderr: '',
      });
    });

    it('refuses a password under 12 characters, naming it, and stores nothing', async () => {
      const brandId = await aBrand();
      const email = freshEmail();

      const created = await brand(
        db.url,
        'create-user',
        '--brand',
        brandId,
        '--email',
        email,
        '--name',
        'Tom',
        '--password',
        'too short',
        '--json',
      );
      const user = await brandJson(db.url, 'create-user', '--brand', brandId, '--email', email, '--name', 'Tom');
      const set = await brand(db.url, 'set-password', '--user', String(user.user_id), '--password', 'too short');

      expect(created).toEqual({ code: 1, stdout: '', stderr: 'error: password must be at least 12 characters\n' });
      expect(set).toEqual({ code: 1, stdout: '', stderr: 'error: password must be at least 12 characters\n' });
      expect((await logInFailure(email, 'too short')).code).toBe('invalid_credentials');
    });

    it('refuses a second user logging in with the same e-mail address, in any brand and any case', async () => {
      const email = freshEmail();
      await brandJson(
        db.url,
        'create-user',
        '--brand',
        await aBrand(),
        '--email',
        email,
        '--name',
        'A',
        '--password',
        PASSWORD,
      );
      const other = await aBrand();

      const run = await brand(
        db.url,
        'create-user',
        '--brand',
        other,
        '--email',
        email.toUpperCase(),
        '--name',
        'B',
        '--password',
        PASSWORD,
      );

      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: another user already logs in with ${email}: e-mail addresses are unique among users with a password\n`,
      });
    });

    it('reports a user that does not exist as not found', async () => {
      const run = await brand(db.url, 'set-password', '--user', '999999', '--password', PASSWORD);

      expect(run).toEqual({ code: 1, stdout: '', stderr: 'error: user 999999 was not found\n' });
    });

    it('creates an app with repeated --redirect-uri, printing client_id beside app_id and app_key', async () => {
      const brandId = await aBrand();

      const app = await brandJson(
        db.url,
        'create-app',
        '--brand',
        brandId,
        '--name',
        'ERP',
        '--redirect-uri',
        'https://erp.atelier-nord.example/oauth/callback',
        '--redirect-uri',
        'http://127.0.0.1:8400/callback',
      );

      expect(app).toEqual({
        app_id: expect.any(Number),
        client_id: expect.stringMatching(/^app_[A-Za-z0-9_-]{24}$/),
        app_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        brand_id: Number(brandId),
        name: 'ERP',
        internal_code: null,
        redirect_uris: ['https://erp.atelier-nord.example/oauth/callback', 'http://127.0.0.1:8400/callback'],
        created_at: expect.any(String),
      });
      const storage = await db.storage();
      expect(await findOAuthClient({ uow: storage.uow }, { clientId: app.client_id as string })).toMatchObject({
        app: { id: app.app_id, brandId: Number(brandId) },
        redirectUris: ['https://erp.atelier-nord.example/oauth/callback', 'http://127.0.0.1:8400/callback'],
      });
    });

    it('creates an app without redirect URIs, and prints its client id for people', async () => {
      const brandId = await aBrand();

      const run = await brand(db.url, 'create-app', '--brand', brandId, '--name', 'ERP');

      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/\nOAuth client id: app_[A-Za-z0-9_-]{24} \(the app key is its client secret\)\.\n/);
      const clientId = /OAuth client id: (\S+)/.exec(run.stdout)![1]!;
      const storage = await db.storage();
      expect((await findOAuthClient({ uow: storage.uow }, { clientId }))?.redirectUris).toEqual([]);
    });

    it('refuses an app with a redirect URI that is neither https nor loopback http, naming it', async () => {
      const brandId = await aBrand();

      const run = await brand(
        db.url,
        'create-app',
        '--brand',
        brandId,
        '--name',
        'ERP',
        '--redirect-uri',
        'https://erp.atelier-nord.example/callback',
        '--redirect-uri',
        'http://erp.atelier-nord.example/callback',
        '--json',
      );

      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'error: redirect_uris[1] may use http only on a loopback host (localhost, 127.0.0.1 or [::1]); use https\n',
      });
    });
  });
}
