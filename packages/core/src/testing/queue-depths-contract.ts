import { Customer } from '../customers/customer.entities';
import { recordEvents } from '../events/record-events';
import { readQueueDepths } from '../monitoring/read-queue-depths';
import { FixedClock } from '../shared/clock.ports';
import { createWebhookEndpoint } from '../webhooks/create-webhook-endpoint';
import { contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';
import { FakeSecretHasher } from './fake-secret-hasher';

const T0 = '2026-09-01T08:30:00.000Z';

/**
 * The contract of the queue depths (`QueueDepthRepository`, through `readQueueDepths`) on every
 * storage adapter: pending webhook deliveries and bulk operations by status, summed over every
 * brand. Counts are over the whole storage, which other suites may share, so each test compares
 * what it added with a reading taken before.
 *
 * @example
 * describeQueueDepthsContract('in-memory queue depths', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeQueueDepthsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const clock = new FixedClock(T0);
    const { aBrand, aBulkOperation } = contractBuilders(uow, { at: T0, brandLabel: 'Queue brand' });

    /** An endpoint of the brand and `events` events committed to it: as many pending deliveries. */
    async function pendingDeliveries(brandId: number, events: number): Promise<void> {
      await createWebhookEndpoint(
        { uow: uow(), clock, hasher: new FakeSecretHasher() },
        { brandId, url: 'https://erp.example.com/hooks', events: ['*'] },
      );
      await uow().run((tx) =>
        recordEvents(
          tx,
          brandId,
          T0,
          Array.from({ length: events }, (_, i) => ({
            type: 'customer.created' as const,
            object: { id: i + 1, brandId } as unknown as Customer,
          })),
        ),
      );
    }

    /** An upload started, and queued unless `receiving`. */
    const anOperation = (brandId: number, receiving = false) => aBulkOperation(brandId, { receiving });

    it('counts the pending webhook deliveries of every brand', async () => {
      const before = await readQueueDepths({ uow: uow() });
      await pendingDeliveries((await aBrand()).id, 2);
      await pendingDeliveries((await aBrand('Other')).id, 3);
      const after = await readQueueDepths({ uow: uow() });
      expect(after.webhookDeliveriesPending - before.webhookDeliveriesPending).toBe(5);
    });

    it('counts the bulk operations of every brand by status, naming every status', async () => {
      const before = await readQueueDepths({ uow: uow() });
      const [first, second] = [(await aBrand()).id, (await aBrand('Other')).id];
      await anOperation(first);
      await anOperation(second);
      await anOperation(second, true);
      const after = await readQueueDepths({ uow: uow() });
      expect(Object.keys(after.bulkOperationsByStatus).sort()).toEqual(
        ['cancelled', 'failed', 'queued', 'receiving', 'running', 'succeeded'].sort(),
      );
      const added = Object.fromEntries(
        Object.entries(after.bulkOperationsByStatus).map(([status, count]) => [
          status,
          count - before.bulkOperationsByStatus[status as keyof typeof before.bulkOperationsByStatus],
        ]),
      );
      expect(added).toEqual({ queued: 2, receiving: 1, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
    });
  });
}
