import pino from 'pino';
import { FixedClock, listEvents } from '@brand/core';
import { startEventRetention } from '../src/infrastructure/event-retention';
import { placeOrder, seedOrderingBrand } from './support/orders';
import { useTestApp } from './support/test-app';

// The schedule only: what a pass deletes is the events contract's and the core's to test.
describe('event retention in an API process [sqlite]', () => {
  const t = useTestApp('sqlite');

  it('deletes expired events on its passes, and stops when told', async () => {
    const shop = await seedOrderingBrand(t);
    await placeOrder(t, shop.brand, shop.channels.b2b, {
      customer_number: 'C-B2B',
      lines: [{ sku: 'TEE-S', quantity: 1 }],
    });
    const later = new FixedClock(new Date(Date.parse(t.clock.now()) + 31 * 24 * 60 * 60 * 1000).toISOString());
    const count = async () =>
      (await listEvents({ uow: t.storage.uow }, { brandId: shop.brand.brandId, query: {} })).page.total;
    // The order, its stock moves and the seeding's customers.
    expect(await count()).toBeGreaterThan(0);

    const stop = startEventRetention({
      uow: t.storage.uow,
      clock: later,
      logger: pino({ level: 'silent' }),
      firstPassAfterMs: 1,
      everyMs: 10,
    });
    try {
      // A deadline only a schedule that never runs reaches (passes come every 10 ms).
      const deadline = Date.now() + 20_000;
      while ((await count()) !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(await count()).toBe(0);
    } finally {
      stop();
    }
  });
});
