import { BulkOperationStatus } from '../bulk-operations/bulk-operation.entities';
import { QueueDepthRepositories } from '../monitoring/queue-depth.ports';
import { BulkOperationsState } from './in-memory-bulk-operations';
import { InMemoryFactories } from './in-memory-factories';
import { WebhooksState } from './in-memory-webhooks';

/** The queue depths over the webhook and bulk operation state (no brands to walk in memory). */
export const inMemoryMonitoringFactories: InMemoryFactories<
  QueueDepthRepositories,
  WebhooksState & BulkOperationsState
> = {
  queueDepths: (s) => ({
    async pendingWebhookDeliveries() {
      return s().webhookDeliveries.filter((delivery) => delivery.status === 'pending').length;
    },
    async bulkOperationsByStatus() {
      const counts: Partial<Record<BulkOperationStatus, number>> = {};
      for (const { status } of s().bulkOperations) counts[status] = (counts[status] ?? 0) + 1;
      return counts;
    },
  }),
};
