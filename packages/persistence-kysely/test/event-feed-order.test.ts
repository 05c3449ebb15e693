import { FixedClock, Order, createBrand, listEvents, recordEvents } from '@brand/core';
import { Storage } from '../src';
import { openTestStorage, testDialects } from '../src/testing';

/**
 * DESIGN §10, "the feed never skips", at the storage: a brand's event ids follow the order in
 * which its transactions commit. Only Postgres runs transactions side by side (SQLite has one
 * writer, the in-memory adapter serialises them), so only there can a later transaction commit
 * before an earlier one.
 */
const T0 = '2026-05-01T00:00:00.000Z';

const anOrder = (brandId: number, id: number): Order =>
  ({ id, brandId, orderNumber: id, status: 'draft', lines: [] }) as unknown as Order;

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Whether `promise` has settled after a quarter second (it must not have, when it waits for a lock). */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 250));
  return settled;
}

for (const dialect of testDialects()) {
  describe(`event ids follow the brand's commits [${dialect}]`, () => {
    let storage: Storage;
    beforeAll(async () => {
      storage = await openTestStorage(dialect);
    });
    afterAll(async () => {
      await storage.close();
    });

    /** The brand's feed, oldest first: which order each event announced. */
    const aBrand = (name: string) =>
      createBrand({ uow: storage.uow, clock: new FixedClock(T0) }, { name, currency: 'EUR' });
    const feed = async (brandId: number): Promise<number[]> =>
      (await listEvents({ uow: storage.uow }, { brandId, query: { limit: '100' } })).page.items.map(
        (e) => (e.object as unknown as { id: number }).id,
      );

    if (dialect !== 'postgres') {
      // SQLite keeps the rule by having one writer: a transaction that records an event runs to
      // its commit before the next one starts, so the order they ran in is their commit order.
      it('numbers the events of transactions started together in the order the transactions ran', async () => {
        const brand = await aBrand('Single writer');
        const ran: string[] = [];
        await Promise.all(
          [1, 2, 3, 4].map((id) =>
            storage.uow.run(async (tx) => {
              ran.push(`start ${id}`);
              await recordEvents(tx, brand.id, T0, [
                { type: 'order.created', object: anOrder(brand.id, id), timeline: { note: null, userId: null } },
              ]);
              // Give the event loop a turn inside the transaction: another may not start meanwhile.
              await new Promise((resolve) => setImmediate(resolve));
              ran.push(`end ${id}`);
            }),
          ),
        );
        const order = ran.filter((step) => step.startsWith('start')).map((step) => Number(step.slice(6)));
        expect(ran).toEqual(order.flatMap((id) => [`start ${id}`, `end ${id}`]));
        expect(await feed(brand.id)).toEqual(order);
      });
      return;
    }

    it('numbers the events of a transaction that recorded first but commits last after those that committed meanwhile', async () => {
      const brand = await aBrand('Feed order');
      const held = gate();
      const recorded = gate();
      const slow = storage.uow.run(async (tx) => {
        await recordEvents(tx, brand.id, T0, [
          { type: 'order.created', object: anOrder(brand.id, 1), timeline: { note: null, userId: null } },
        ]);
        recorded.open();
        await held.opened;
      });
      await recorded.opened;
      for (const id of [2, 3])
        await storage.uow.run((tx) =>
          recordEvents(tx, brand.id, T0, [
            { type: 'order.created', object: anOrder(brand.id, id), timeline: { note: null, userId: null } },
          ]),
        );
      expect(await feed(brand.id)).toEqual([2, 3]);
      held.open();
      await slow;

      // The feed only grew at its end: the slow transaction's event comes after both.
      expect(await feed(brand.id)).toEqual([2, 3, 1]);
    });

    it("holds the brand's feed from the draw to the commit, and only that brand's", async () => {
      const brand = await aBrand('Feed lock');
      const other = await aBrand('Other feed');
      const held = gate();
      const drawn = gate();
      let first = 0;
      const holder = storage.uow.run(async (tx) => {
        first = (await tx.events.nextFeedIds(brand.id, 1))[0]!;
        drawn.open();
        await held.opened;
      });
      await drawn.opened;

      const waiting = storage.uow.run((tx) => tx.events.nextFeedIds(brand.id, 2));
      const otherBrand = storage.uow.run((tx) => tx.events.nextFeedIds(other.id, 1));
      let otherDrew: boolean;
      let waitingDrew: boolean;
      try {
        // Another brand's feed is free while this one is held: its draw ends (a generous bound,
        // so that only a lock makes it miss, never a slow machine).
        otherDrew = await Promise.race([
          otherBrand.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000)),
        ]);
        waitingDrew = await settlesSoon(waiting);
      } finally {
        // Whatever the answer, the held transaction ends (a failure must not leave it open).
        held.open();
        await holder;
      }
      expect({ otherDrew, waitingDrew }).toEqual({ otherDrew: true, waitingDrew: false });
      const later = await waiting;
      expect(later).toHaveLength(2);
      expect(Math.min(...later)).toBeGreaterThan(first);
      expect(later[1]).toBeGreaterThan(later[0]!);
    });
  });
}
