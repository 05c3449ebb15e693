import pino from 'pino';
import request from 'supertest';
import { FixedClock, createBrand, createUser, listEvents, startConsoleSession } from '@brand/core';
import { testDialects } from '@brand/persistence-kysely/testing';
import { startHousekeeping } from '../src/infrastructure/housekeeping';
import { nodeSecretHasher } from '../src/infrastructure/node-secret-hasher';
import { seedOrderingBrand } from './support/orders';
import { useTestApp } from './support/test-app';

const HOUR_MS = 60 * 60 * 1000;

/** Waits until `done` answers true, checking every 10 ms; the deadline is one only a schedule that never runs reaches. */
async function eventually(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

// The schedule only: what a pass deletes is the contracts' and the core's to test.
describe('housekeeping in an API process: event retention [sqlite]', () => {
  const t = useTestApp('sqlite');

  it('deletes expired events and idempotency keys on its passes, and stops when told', async () => {
    const shop = await seedOrderingBrand(t);
    const orderWithKey = (quantity: number) =>
      request(t.server)
        .post(`/v10/order-channels/${shop.channels.b2b}/orders`)
        .set(shop.brand.headers)
        .set('Idempotency-Key', 'kept-a-day')
        .send({ order: { customer_number: 'C-B2B', lines: [{ sku: 'TEE-S', quantity }] } });
    expect((await orderWithKey(1)).status).toBe(201);
    // Still kept: the same key with another body is refused.
    expect((await orderWithKey(2)).status).toBe(422);
    const later = new FixedClock(new Date(Date.parse(t.clock.now()) + 31 * 24 * 60 * 60 * 1000).toISOString());
    const count = async () =>
      (await listEvents({ uow: t.storage.uow }, { brandId: shop.brand.brandId, query: {} })).page.total;
    // The order, its stock moves and the seeding's customers.
    expect(await count()).toBeGreaterThan(0);

    const stop = startHousekeeping({
      uow: t.storage.uow,
      clock: later,
      logger: pino({ level: 'silent' }),
      requestLogRetentionDays: 30,
      firstPassAfterMs: 1,
      everyMs: 10,
    });
    // Whether the key is gone: a probe claims it only where no record is, and gives it back.
    const scope = { brandId: shop.brand.brandId, appId: shop.brand.appId, key: 'kept-a-day' };
    const keyPruned = () =>
      t.storage.uow.run(async (tx) => {
        const probe = { ...scope, fingerprint: 'probe', status: 'running' as const, claimToken: 'probe' };
        const at = t.clock.now();
        const existing = await tx.idempotencyKeys.claim({ ...probe, lockedUntil: at, createdAt: at, answer: null });
        if (existing) return false;
        await tx.idempotencyKeys.release(scope, 'probe');
        return true;
      });
    try {
      await eventually(async () => (await count()) === 0);
      expect(await count()).toBe(0);
      await eventually(keyPruned);
    } finally {
      // Stopped before the next request: this pass's clock is 31 days ahead, so it would take the
      // request's own fresh claim for an expired key.
      stop();
    }
    expect(await keyPruned()).toBe(true);
    // The key went with its retention: the same key now runs another request.
    const another = await orderWithKey(2);
    expect(another.status).toBe(201);
    expect(another.headers['idempotent-replayed']).toBeUndefined();
  });
});

for (const dialect of testDialects()) {
  describe(`housekeeping in an API process: console sessions [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const deps = () => ({ uow: t.storage.uow, clock: t.clock, hasher: nodeSecretHasher });

    it('deletes the row of a session idle for 12 hours, while a session in use still opens the console', async () => {
      const brand = await createBrand(deps(), { name: 'North', currency: 'EUR' });
      const user = await createUser(deps(), { brandId: brand.id, email: 'anna@north.example', name: 'Anna' });
      const idle = await startConsoleSession(deps(), { brandId: user.brandId, userId: user.id });
      t.clock.advance(11 * HOUR_MS);
      const inUse = await startConsoleSession(deps(), { brandId: user.brandId, userId: user.id });
      t.clock.advance(HOUR_MS);
      const stored = async (session: typeof idle.session) =>
        (await t.storage.uow.read((r) => r.consoleSessions.findByHash(brand.id, session.secretHash))) !== null;
      expect(await stored(idle.session)).toBe(true);

      const stop = startHousekeeping({
        uow: t.storage.uow,
        clock: t.clock,
        logger: pino({ level: 'silent' }),
        requestLogRetentionDays: 30,
        firstPassAfterMs: 1,
        everyMs: 10,
      });
      try {
        // Deleted by a pass, before anyone presented its cookie again.
        await eventually(async () => !(await stored(idle.session)));
        expect(await stored(idle.session)).toBe(false);
        expect(await stored(inUse.session)).toBe(true);

        const page = await request(t.server).get('/console/tokens').set('Cookie', `session=${inUse.cookieValue}`);
        expect(page.status).toBe(200);
        expect(page.text).toContain('Anna');
        const refused = await request(t.server).get('/console/tokens').set('Cookie', `session=${idle.cookieValue}`);
        expect(refused.status).toBe(303);
        expect(refused.headers['location']).toBe('/console/login');
      } finally {
        stop();
      }
    });
  });
}
