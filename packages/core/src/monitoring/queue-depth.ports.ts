import { BulkOperationStatus } from '../bulk-operations/bulk-operation.entities';

/**
 * How much work the database holds waiting, over every brand, for the operator's metrics
 * (DESIGN §17). Every adapter counts brand by brand, one brand per statement (DESIGN §9: the
 * statement check and row-level security refuse a count across brands), each count a range of an
 * index led by the brand.
 * @example const pending = await tx.queueDepths.pendingWebhookDeliveries();
 */
export interface QueueDepthRepository {
  /** Webhook deliveries waiting for an attempt (status pending, due or not), of every brand. */
  pendingWebhookDeliveries(): Promise<number>;
  /** Bulk operations of every brand by status (uploads still receiving included); a status without any is left out. */
  bulkOperationsByStatus(): Promise<Partial<Record<BulkOperationStatus, number>>>;
}

/** The monitoring module's repositories; the declaration below adds them to `Repositories`. */
export interface QueueDepthRepositories {
  queueDepths: QueueDepthRepository;
}

declare module '../shared/unit-of-work.ports' {
  interface Repositories extends QueueDepthRepositories {}
}
