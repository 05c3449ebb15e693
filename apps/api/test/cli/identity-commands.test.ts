import { createStoredTokenVerifier, isDomainError, Principal, systemClock } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { nodeSecretHasher } from '../../src/infrastructure/node-secret-hasher';
import { brand, brandJson, CliTestDatabase, openCliTestDatabase, parseSingleJsonObject } from './cli-test-support';

for (const dialect of testDialects()) {
  describe(`brand CLI identity commands [${dialect}]`, () => {
    let db: CliTestDatabase;

    beforeAll(async () => {
      db = await openCliTestDatabase(dialect);
    });

    afterAll(async () => {
      await db.close();
    });

    async function verify(accessToken: string, appKey: string): Promise<Principal> {
      const storage = await db.storage();
      return createStoredTokenVerifier({ uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher }).verify({
        accessToken,
        appKey,
        requireAppKey: true,
      });
    }

    async function verificationFailure(accessToken: string, appKey: string): Promise<string> {
      try {
        await verify(accessToken, appKey);
      } catch (error) {
        if (isDomainError(error) && error.code === 'unauthenticated') return error.message;
        throw error;
      }
      throw new Error('the token still verifies');
    }

    /** brand → user → app, the way an admin sets up an integration. */
    async function createBrandUserAndApp(): Promise<{
      brandId: number;
      userId: number;
      appId: number;
      appKey: string;
    }> {
      const { brand_id: brandId } = await brandJson(
        db.url,
        'create-brand',
        '--name',
        'Atelier Nord',
        '--currency',
        'EUR',
      );
      const { user_id: userId } = await brandJson(
        db.url,
        'create-user',
        '--brand',
        String(brandId),
        '--email',
        'ops@atelier-nord.example',
        '--name',
        'Olga Ops',
      );
      const { app_id: appId, app_key: appKey } = await brandJson(
        db.url,
        'create-app',
        '--brand',
        String(brandId),
        '--name',
        'ERP',
      );
      return { brandId: brandId as number, userId: userId as number, appId: appId as number, appKey: appKey as string };
    }

    it('creates a brand, a user, an app and a token, each printing one JSON object', async () => {
      const created = await brandJson(db.url, 'create-brand', '--name', 'Atelier Nord', '--currency', 'EUR');
      expect(created).toEqual({
        brand_id: expect.any(Number),
        name: 'Atelier Nord',
        currency: 'EUR',
        created_at: expect.any(String),
      });

      const user = await brandJson(
        db.url,
        'create-user',
        '--brand',
        String(created.brand_id),
        '--email',
        'ops@atelier-nord.example',
        '--name',
        'Olga Ops',
      );
      expect(user).toMatchObject({
        user_id: expect.any(Number),
        brand_id: created.brand_id,
        email: 'ops@atelier-nord.example',
        name: 'Olga Ops',
      });

      const app = await brandJson(
        db.url,
        'create-app',
        '--brand',
        String(created.brand_id),
        '--name',
        'Return portal',
        '--internal-code',
        'returnless',
      );
      expect(app).toMatchObject({
        app_id: expect.any(Number),
        app_key: expect.any(String),
        brand_id: created.brand_id,
        internal_code: 'returnless',
      });

      const token = await brandJson(
        db.url,
        'create-token',
        '--user',
        String(user.user_id),
        '--app',
        String(app.app_id),
      );
      expect(token).toMatchObject({
        access_token: expect.any(String),
        token_id: expect.any(Number),
        expires_at: expect.any(String),
        scopes: expect.arrayContaining(['catalog:read', 'orders:write', 'settings:write']),
        user_id: user.user_id,
        app_id: app.app_id,
        brand_id: created.brand_id,
      });
    });

    it('issues a token that verifies with its app key and carries the scopes asked for', async () => {
      const { brandId, userId, appId, appKey } = await createBrandUserAndApp();
      const token = await brandJson(
        db.url,
        'create-token',
        '--user',
        String(userId),
        '--app',
        String(appId),
        '--scopes',
        'catalog:read, orders:write',
      );

      expect(token.scopes).toEqual(['catalog:read', 'orders:write']);
      await expect(verify(token.access_token as string, appKey)).resolves.toEqual({
        brandId,
        userId,
        appId,
        tokenId: token.token_id,
        scopes: ['catalog:read', 'orders:write'],
        appInternalCode: null,
      });
    });

    it('issues a token that does not verify with the key of another app', async () => {
      const { brandId, userId, appId } = await createBrandUserAndApp();
      const other = await brandJson(db.url, 'create-app', '--brand', String(brandId), '--name', 'Webshop');
      const token = await brandJson(db.url, 'create-token', '--user', String(userId), '--app', String(appId));

      expect(await verificationFailure(token.access_token as string, other.app_key as string)).toMatch(/app key/);
    });

    it('sets the expiry from --expires-in with a unit, and a year by default', async () => {
      const { userId, appId } = await createBrandUserAndApp();
      const before = Date.now();
      const shortLived = await brandJson(
        db.url,
        'create-token',
        '--user',
        String(userId),
        '--app',
        String(appId),
        '--expires-in',
        '30d',
      );
      const standard = await brandJson(db.url, 'create-token', '--user', String(userId), '--app', String(appId));
      const after = Date.now();

      const day = 24 * 60 * 60 * 1000;
      expect(Date.parse(shortLived.expires_at as string)).toBeGreaterThanOrEqual(before + 30 * day);
      expect(Date.parse(shortLived.expires_at as string)).toBeLessThanOrEqual(after + 30 * day);
      expect(Date.parse(standard.expires_at as string)).toBeGreaterThanOrEqual(before + 365 * day);
      expect(Date.parse(standard.expires_at as string)).toBeLessThanOrEqual(after + 365 * day);
    });

    it('revokes a token by id, after which it no longer verifies', async () => {
      const { userId, appId, appKey } = await createBrandUserAndApp();
      const token = await brandJson(db.url, 'create-token', '--user', String(userId), '--app', String(appId));
      await verify(token.access_token as string, appKey);

      const revoked = await brandJson(db.url, 'revoke-token', '--token-id', String(token.token_id));

      expect(revoked).toEqual({ token_id: token.token_id, revoked_at: expect.any(String), already_revoked: false });
      expect(await verificationFailure(token.access_token as string, appKey)).toMatch(/revoked/);
    });

    it('revokes a token given as plain text, and says so when asked again', async () => {
      const { userId, appId, appKey } = await createBrandUserAndApp();
      const token = await brandJson(db.url, 'create-token', '--user', String(userId), '--app', String(appId));

      const first = await brandJson(db.url, 'revoke-token', '--token', token.access_token as string);
      const again = await brand(db.url, 'revoke-token', '--token', token.access_token as string);

      expect(first).toMatchObject({ token_id: token.token_id, already_revoked: false });
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`Token ${String(token.token_id)} was already revoked`));
      expect(await verificationFailure(token.access_token as string, appKey)).toMatch(/revoked/);
    });

    it('rotates an app key: the new key is printed once, the old one fails at once even where it was cached', async () => {
      const { brandId, userId, appId, appKey: oldKey } = await createBrandUserAndApp();
      const token = await brandJson(db.url, 'create-token', '--user', String(userId), '--app', String(appId));
      const accessToken = token.access_token as string;
      const storage = await db.storage();
      // A running API process: its verifier has the token and the app (with the old key's hash) cached.
      const running = createStoredTokenVerifier({ uow: storage.uow, clock: systemClock, hasher: nodeSecretHasher });
      await running.verify({ accessToken, appKey: oldKey, requireAppKey: true });

      const rotated = await brandJson(db.url, 'rotate-app-key', '--app', String(appId));

      expect(rotated).toEqual({
        app_id: appId,
        client_id: expect.stringMatching(/^app_/),
        app_key: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
        brand_id: brandId,
        name: 'ERP',
      });
      const newKey = rotated.app_key as string;
      expect(newKey).not.toBe(oldKey);
      await expect(running.verify({ accessToken, appKey: oldKey, requireAppKey: true })).rejects.toThrow(/app key/);
      await expect(running.verify({ accessToken, appKey: newKey, requireAppKey: true })).resolves.toMatchObject({
        appId,
      });
      expect(await verificationFailure(accessToken, oldKey)).toMatch(/app key/);
    });

    it('prints the rotated key for people without --json, and reports an unknown app as not found', async () => {
      const { appId } = await createBrandUserAndApp();

      const rotated = await brand(db.url, 'rotate-app-key', '--app', String(appId));
      const unknown = await brand(db.url, 'rotate-app-key', '--app', '999999');

      expect(rotated.code).toBe(0);
      expect(rotated.stdout).toMatch(
        new RegExp(`^Rotated the key of API app ${appId} "ERP" in brand \\d+; the old key no longer works\.\n`),
      );
      expect(rotated.stdout).toMatch(/shown only now\): [A-Za-z0-9_-]{40,}\n$/);
      expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'error: api app 999999 was not found\n' });
    });

    it('prints friendly lines, including the one-time secrets, without --json', async () => {
      const created = await brand(db.url, 'create-brand', '--name', 'Atelier Nord', '--currency', 'EUR');
      expect(created).toEqual({
        code: 0,
        stdout: expect.stringMatching(/^Created brand \d+ "Atelier Nord" \(EUR\)\.\n$/),
        stderr: '',
      });
      const brandId = /Created brand (\d+)/.exec(created.stdout)![1]!;

      const app = await brand(db.url, 'create-app', '--brand', brandId, '--name', 'ERP');
      expect(app.code).toBe(0);
      expect(app.stdout).toMatch(/App key \(send as X-Service-App-Key; shown only now\): \S{43}\n$/);
    });

    it('refuses a brand with a bad currency: exit code 1, the reason on stderr, nothing on stdout', async () => {
      const run = await brand(db.url, 'create-brand', '--name', 'Atelier Nord', '--currency', 'euro', '--json');

      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe('error: currency must be a 3-letter ISO 4217 code such as EUR\n');
    });

    it('lists every violation when several fields are wrong', async () => {
      const run = await brand(db.url, 'create-brand', '--name', ' ', '--currency', 'euro');

      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        'error: 2 fields are invalid\n  - name must not be empty\n  - currency must be a 3-letter ISO 4217 code such as EUR\n',
      );
    });

    it('refuses a token with an unknown scope and issues nothing', async () => {
      const { userId, appId } = await createBrandUserAndApp();

      const run = await brand(
        db.url,
        'create-token',
        '--user',
        String(userId),
        '--app',
        String(appId),
        '--scopes',
        'catalog:read,catalog:delete',
        '--json',
      );

      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe('error: scopes[1] "catalog:delete" is not a scope; use area:read or area:write\n');
    });

    it('reports a brand that does not exist as not found', async () => {
      const run = await brand(db.url, 'create-user', '--brand', '999999', '--email', 'a@b.example', '--name', 'Nobody');

      expect(run).toEqual({ code: 1, stdout: '', stderr: 'error: brand 999999 was not found\n' });
    });

    it('refuses a token for an app of another brand as if the app did not exist', async () => {
      const mine = await createBrandUserAndApp();
      const theirs = await createBrandUserAndApp();

      const run = await brand(db.url, 'create-token', '--user', String(mine.userId), '--app', String(theirs.appId));

      expect(run).toEqual({ code: 1, stdout: '', stderr: `error: api app ${theirs.appId} was not found\n` });
    });

    it('migrates an up-to-date database again without complaint', async () => {
      const first = parseSingleJsonObject((await brand(db.url, 'migrate', '--json')).stdout);
      const second = await brand(db.url, 'migrate');

      expect(first).toEqual({ migrated: true, dialect });
      expect(second).toEqual({ code: 0, stdout: expect.stringMatching(/database is up to date\.\n$/), stderr: '' });
    });
  });
}
