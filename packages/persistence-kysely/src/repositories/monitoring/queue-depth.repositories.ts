import { BulkOperationStatus, QueueDepthRepositories, QueueDepthRepository } from '@brand/core';
import { Executor, RepositoryFactories } from '../executor';
import { forEachBrand } from '../each-brand';

/**
 * The queue depths, brand by brand (`forEachBrand`): each count is a range of an index led by the
 * brand, the deliveries' `(brand_id, status, next_attempt_at)` and the operations'
 * `(brand_id, status, id)`, so a brand's count reads its queued rows' index entries and no table row.
 */
export function queueDepthRepository({ db }: Executor): QueueDepthRepository {
  return {
    async pendingWebhookDeliveries() {
      let pending = 0;
      await forEachBrand(db, async (brandId) => {
        const row = await db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('pending'))
          .where('brand_id', '=', brandId)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow();
        pending += Number(row.pending);
      });
      return pending;
    },
    async bulkOperationsByStatus() {
      const counts: Partial<Record<BulkOperationStatus, number>> = {};
      await forEachBrand(db, async (brandId) => {
        const rows = await db
          .selectFrom('bulk_operations')
          .select(['status', (eb) => eb.fn.countAll<number>().as('operations')])
          .where('brand_id', '=', brandId)
          .groupBy('status')
          .execute();
        for (const { status, operations } of rows) {
          const known = status as BulkOperationStatus;
          counts[known] = (counts[known] ?? 0) + Number(operations);
        }
      });
      return counts;
    },
  };
}

export const queueDepthRepositoryFactories: RepositoryFactories<QueueDepthRepositories> = {
  queueDepths: (executor) => queueDepthRepository(executor),
};
