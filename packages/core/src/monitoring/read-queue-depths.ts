import { BULK_OPERATION_STATUSES, BulkOperationStatus } from '../bulk-operations/bulk-operation.entities';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/** How deep the database's queues are right now, over every brand. */
export interface QueueDepths {
  /** Webhook deliveries waiting for an attempt. */
  webhookDeliveriesPending: number;
  /** Bulk operations by status, every status named (0 when none), so a gauge falls to 0 rather than vanishing. */
  bulkOperationsByStatus: Record<BulkOperationStatus, number>;
}

/**
 * Reads the queue depths the operator's metrics show (DESIGN §17), counted brand by brand: its
 * cost grows with the number of brands (two short indexed counts each), so callers that are asked
 * often (a scrape every few seconds) keep the answer for a while.
 * @example const { webhookDeliveriesPending } = await readQueueDepths({ uow: storage.uow });
 */
export async function readQueueDepths(deps: {
  uow: UnitOfWork<Pick<Repositories, 'queueDepths'>>;
}): Promise<QueueDepths> {
  return deps.uow.read(async (tx) => {
    const webhookDeliveriesPending = await tx.queueDepths.pendingWebhookDeliveries();
    const counted = await tx.queueDepths.bulkOperationsByStatus();
    const bulkOperationsByStatus = { receiving: 0 } as Record<BulkOperationStatus, number>;
    for (const status of BULK_OPERATION_STATUSES) bulkOperationsByStatus[status] = 0;
    Object.assign(bulkOperationsByStatus, counted);
    return { webhookDeliveriesPending, bulkOperationsByStatus };
  });
}
