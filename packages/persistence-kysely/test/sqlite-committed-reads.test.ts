import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessToken, createApiApp, createBrand, createUser, FixedClock, issueAccessToken } from '@brand/core';
import { FakeSecretHasher } from '@brand/core/testing';
import { Storage, openStorage } from '../src';
import { testDialects } from '../src/testing';

/** A gate the test opens: work awaiting `passed` goes on once `open` is called. */
function gate(): { passed: Promise<void>; open: () => void } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { passed, open };
}

/** Whether `promise` settles before a timer the test does not hold (it waits for nothing the test holds). */
async function settlesSoon<T>(promise: Promise<T>): Promise<boolean> {
  const pending = Symbol('pending');
  const timer = new Promise<typeof pending>((resolve) => setTimeout(() => resolve(pending), 50));
  return (await Promise.race([promise, timer])) !== pending;
}

// SQLite files only: an in-memory database has the one connection, and its reads wait as before.
// Skipped, not left out, when the run has no SQLite: a file without a test fails jest.
(testDialects().includes('sqlite') ? describe : describe.skip)('reads outside a transaction on a SQLite file', () => {
  const clock = new FixedClock();
  let folder: string;
  let storage: Storage;
  let token: AccessToken;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'brand-committed-reads-'));
    storage = await openStorage(join(folder, 'brand.sqlite'));
    await storage.migrate();
    const deps = { uow: storage.uow, clock, hasher: new FakeSecretHasher() };
    const brand = await createBrand(deps, { name: 'Acme', currency: 'EUR' });
    const user = await createUser(deps, { brandId: brand.id, email: 'anna@acme.example', name: 'Anna' });
    const { app } = await createApiApp(deps, { brandId: brand.id, name: 'ERP' });
    ({ token } = await issueAccessToken(deps, { userId: user.id, appId: app.id }));
  });

  afterEach(async () => {
    await storage.close();
    rmSync(folder, { recursive: true, force: true });
  });

  // The revision every token check reads, outside any transaction (a revocation advances it).
  const revision = () => storage.uow.read((tx) => tx.accessTokens.credentialsRevision());

  /** Revokes the token in a transaction that stays open until the returned gate opens; resolves once it has written. */
  async function revocationHeldOpen(options: { thenFail?: Error } = {}) {
    const held = gate();
    const written = gate();
    const transaction = storage.uow.run(async (tx) => {
      expect(await tx.accessTokens.revoke(token.brandId, token.id, clock.now())).toBe(true);
      written.open();
      await held.passed;
      if (options.thenFail) throw options.thenFail;
    });
    await written.passed;
    return { release: held.open, transaction };
  }

  it('answer from what is committed while a transaction holds the connection, without waiting for it', async () => {
    const before = await revision();
    const revocation = await revocationHeldOpen();

    const during = revision();
    expect(await settlesSoon(during)).toBe(true);
    expect(await during).toBe(before);

    revocation.release();
    await revocation.transaction;
    expect(await revision()).toBeGreaterThan(before);
  });

  it('never see what a transaction that rolls back wrote', async () => {
    const before = await revision();
    const revocation = await revocationHeldOpen({ thenFail: new Error('changed its mind') });
    expect(await revision()).toBe(before);
    revocation.release();
    await expect(revocation.transaction).rejects.toThrow('changed its mind');
    expect(await revision()).toBe(before);
  });

  it('let a write outside any transaction wait for the connection (it must not land in the open transaction)', async () => {
    const revocation = await revocationHeldOpen();
    const counted = storage.rateLimits.hit('token:1', 60_000, Date.now(), 1);
    expect(await settlesSoon(counted)).toBe(false);
    revocation.release();
    await revocation.transaction;
    expect((await counted).hits).toBe(1);
  });
});
