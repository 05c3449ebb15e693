import { FixedClock, Order, RawListQuery, createBrand, listEvents, recordEvents } from '@brand/core';
import { Storage } from '../src';
import { openTestStorage, testDialects } from '../src/testing';

/**
 * The events list's unfiltered total is kept per brand (`event_feeds.events_stored`): counted as
 * events are written, taken down as the housekeeping prunes them. Either way it must equal what a
 * count of the rows says, which a filter every event passes makes the list do.
 */
const OLD = '2026-01-01T00:00:00.000Z';
const NEW = '2026-05-01T00:00:00.000Z';

const anOrder = (brandId: number, id: number): Order =>
  ({ id, brandId, orderNumber: id, status: 'draft', lines: [] }) as unknown as Order;

for (const dialect of testDialects()) {
  describe(`the events list's kept total [${dialect}]`, () => {
    let storage: Storage;
    beforeAll(async () => {
      storage = await openTestStorage(dialect);
    });
    afterAll(async () => {
      await storage.close();
    });

    const aBrand = (name: string) =>
      createBrand({ uow: storage.uow, clock: new FixedClock(NEW) }, { name, currency: 'EUR' });
    const total = async (brandId: number, query: RawListQuery = {}) =>
      (await listEvents({ uow: storage.uow }, { brandId, query })).page.total;
    const totals = async (brandId: number) => ({
      kept: await total(brandId),
      counted: await total(brandId, {
        filter_groups: [{ filters: [{ key: 'created_at', operator: 'gte', value: '2000-01-01T00:00:00.000Z' }] }],
      }),
    });
    /** One transaction's events: an order created long ago and cancelled now. */
    const write = (brandId: number, id: number) =>
      storage.uow.run(async (tx) => {
        await recordEvents(tx, brandId, OLD, [
          { type: 'order.created', object: anOrder(brandId, id), timeline: { note: null, userId: null } },
        ]);
        await recordEvents(tx, brandId, NEW, [
          { type: 'order.cancelled', object: anOrder(brandId, id), timeline: { note: null, userId: null } },
        ]);
      });

    it('counts the events of parallel transactions (side by side on Postgres), and a filtered list counts its rows', async () => {
      const brand = await aBrand('Counted feed');
      await Promise.all(Array.from({ length: 8 }, (_, i) => write(brand.id, i + 1)));
      await expect(
        storage.uow.run(async (tx) => {
          await recordEvents(tx, brand.id, NEW, [
            { type: 'order.created', object: anOrder(brand.id, 99), timeline: { note: null, userId: null } },
          ]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await totals(brand.id)).toEqual({ kept: 16, counted: 16 });
      expect(
        await total(brand.id, {
          filter_groups: [{ filters: [{ key: 'type', operator: 'eq', value: 'order.cancelled' }] }],
        }),
      ).toBe(8);
    });

    it('takes the pruned events off the total, batch by batch, for every brand', async () => {
      const brand = await aBrand('Pruned feed');
      const other = await aBrand('Other pruned feed');
      for (let id = 1; id <= 5; id++) await write(brand.id, id);
      for (let id = 1; id <= 2; id++) await write(other.id, id);

      // Bounded batches, each in its own transaction, as the housekeeping deletes.
      const cutoff = '2026-02-01T00:00:00.000Z';
      let batches = 0;
      while ((await storage.uow.run((tx) => tx.events.deleteCreatedBefore(cutoff, 3))) === 3) batches++;
      expect(batches).toBeGreaterThan(0);

      expect(await totals(brand.id)).toEqual({ kept: 5, counted: 5 });
      expect(await totals(other.id)).toEqual({ kept: 2, counted: 2 });
      await write(brand.id, 6);
      expect(await totals(brand.id)).toEqual({ kept: 7, counted: 7 });
    });
  });
}
