import { DomainEvent } from '../events/event.entities';
import { eventListDefinition } from '../events/event.list-definitions';
import { RawListQuery } from '../listing/list-query';
import { runList } from '../listing/run-list';
import { DecodedCursor } from '../listing/validate-list-query';
import { Order } from '../orders/order.entities';
import { contractBuilders } from './contract-builders';
import { ContractStorage, PlannedFailure, useContractStorage, walkByCursor } from './contract-support';

const T0 = '2026-05-01T00:00:00.000Z';
const at = (minute: number): string => new Date(Date.parse(T0) + minute * 60_000).toISOString();
/** The event types whose object is an order: the ones this suite stores. */
type OrderEventType = 'order.created' | 'order.approved' | 'order.cancelled' | 'order.archived';

/**
 * The repository contract of the outbox and events feed, run against every storage adapter.
 * What every adapter promises:
 * - Events read back exactly as appended, the object as it was written (nested values, nulls,
 *   decimals in minor units), by id ascending; another brand's events are never found or listed.
 * - The feed lists oldest first by id, filters by `type` and `created_at`, and walks by cursor.
 * - Events appended in a transaction that rolls back are gone with it.
 * - Retention deletes every brand's events created before the instant, and no other.
 *
 * @example
 * describeEventsContract('in-memory events', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeEventsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);

    const { aBrand } = contractBuilders(uow, { at: T0, brandLabel: 'Events brand' });

    /** An order-shaped object: the outbox keeps whatever the use case wrote, so a few fields show it. */
    const anOrder = (brandId: number, id: number, extra: Record<string, unknown> = {}): Order =>
      ({
        id,
        brandId,
        orderNumber: id,
        status: 'draft',
        netTotal: 5247,
        reference: null,
        orderMeta: { source: { channel: 'b2b', tags: ['a', 'b'] } },
        lines: [{ id: 1, sku: 'TEE-M', quantity: 3 }],
        ...extra,
      }) as unknown as Order;

    async function append(
      brandId: number,
      events: { type: OrderEventType; object: Order; createdAt: string }[],
    ): Promise<DomainEvent[]> {
      return uow().run(async (tx) => {
        const ids = await tx.events.nextFeedIds(brandId, events.length);
        const numbered = events.map((e, i) => ({ ...e, id: ids[i]!, brandId }));
        await tx.events.append(numbered);
        return numbered;
      });
    }

    const list = (brandId: number, raw: RawListQuery, cursor?: DecodedCursor) =>
      uow().read((r) =>
        runList(eventListDefinition, { brandId, query: raw, ...(cursor ? { cursor } : {}) }, (q) =>
          r.events.list(brandId, q),
        ),
      );

    it('reads events back exactly as appended, by id, and never those of another brand', async () => {
      const brand = await aBrand();
      const other = await aBrand('Other');
      const written = await append(brand.id, [
        { type: 'order.created', object: anOrder(brand.id, 7), createdAt: at(1) },
        { type: 'order.approved', object: anOrder(brand.id, 7, { status: 'approved' }), createdAt: at(2) },
      ]);
      const [theirs] = await append(other.id, [
        { type: 'order.created', object: anOrder(other.id, 8), createdAt: at(1) },
      ]);

      const ids = written.map((e) => e.id);
      expect(await uow().read((r) => r.events.findByIds(brand.id, [...ids].reverse()))).toStrictEqual(written);
      expect(await uow().read((r) => r.events.findByIds(brand.id, [theirs!.id]))).toStrictEqual([]);
      expect(await uow().read((r) => r.events.findByIds(other.id, ids))).toStrictEqual([]);
    });

    it('lists oldest first with the total, filters by type and created_at, and walks by cursor', async () => {
      const brand = await aBrand();
      const other = await aBrand('Other');
      await append(other.id, [{ type: 'order.created', object: anOrder(other.id, 1), createdAt: at(1) }]);
      const written = await append(
        brand.id,
        Array.from({ length: 5 }, (_, i) => ({
          type: i % 2 === 0 ? ('order.created' as const) : ('order.cancelled' as const),
          object: anOrder(brand.id, i + 1),
          createdAt: at(i + 1),
        })),
      );

      const all = await list(brand.id, {});
      expect(all.page.items).toStrictEqual(written);
      expect(all.page.total).toBe(5);

      const cancelled = await list(brand.id, {
        filter_groups: [{ filters: [{ key: 'type', operator: 'eq', value: 'order.cancelled' }] }],
      });
      expect(cancelled.page.items.map((e) => e.id)).toEqual([written[1]!.id, written[3]!.id]);

      const since = await list(brand.id, {
        filter_groups: [{ filters: [{ key: 'created_at', operator: 'gte', value: at(4) }] }],
      });
      expect(since.page.items.map((e) => e.id)).toEqual([written[3]!.id, written[4]!.id]);

      const pages = await walkByCursor(eventListDefinition, (raw, cursor) => list(brand.id, raw, cursor), {
        limit: '2',
      });
      expect(pages.map((page) => page.map((e) => e.id))).toEqual([
        [written[0]!.id, written[1]!.id],
        [written[2]!.id, written[3]!.id],
        [written[4]!.id],
      ]);
    });

    it('forgets events appended in a transaction that rolls back', async () => {
      const brand = await aBrand();
      await expect(
        uow().run(async (tx) => {
          const [id] = await tx.ids.next('events');
          await tx.events.append([
            { id: id!, brandId: brand.id, type: 'order.created', object: anOrder(brand.id, 1), createdAt: at(1) },
          ]);
          throw new PlannedFailure('after the append');
        }),
      ).rejects.toThrow(PlannedFailure);
      expect((await list(brand.id, {})).page.items).toStrictEqual([]);
    });

    it("deletes every brand's events created before the instant, and only those", async () => {
      const brand = await aBrand();
      const other = await aBrand('Other');
      const [old, kept] = await append(brand.id, [
        { type: 'order.created', object: anOrder(brand.id, 1), createdAt: '2020-01-01T00:00:00.000Z' },
        { type: 'order.created', object: anOrder(brand.id, 2), createdAt: '2020-01-02T00:00:00.000Z' },
      ]);
      await append(other.id, [
        { type: 'order.created', object: anOrder(other.id, 3), createdAt: '2020-01-01T12:00:00.000Z' },
      ]);

      // Other suites of this storage may have written old events too: count only these brands'.
      // At most one per call: the limit holds, and a second call takes the next.
      const first = await uow().run((tx) => tx.events.deleteCreatedBefore('2020-01-02T00:00:00.000Z', 1));
      expect(first).toBe(1);
      await uow().run((tx) => tx.events.deleteCreatedBefore('2020-01-02T00:00:00.000Z', 1000));

      expect((await list(brand.id, {})).page.items).toStrictEqual([kept]);
      expect((await list(other.id, {})).page.items).toStrictEqual([]);
      expect(await uow().read((r) => r.events.findByIds(brand.id, [old!.id]))).toStrictEqual([]);
      expect(await uow().run((tx) => tx.events.deleteCreatedBefore('2020-01-02T00:00:00.000Z', 1000))).toBe(0);
    });
  });
}
