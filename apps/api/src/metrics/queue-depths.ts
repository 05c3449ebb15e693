import { QueueDepths as Depths, Repositories, UnitOfWork, readQueueDepths } from '@brand/core';
import { Logger } from 'pino';
import { QueueDepths } from './api-metrics';

/**
 * How long one reading of the queue depths answers scrapes. Reading them counts brand by brand,
 * two statements per brand; Prometheus scrapes every 15 s or so, more often with several
 * scrapers, and a gauge a few seconds old says the same to an operator.
 */
export const QUEUE_DEPTHS_FRESH_MS = 5_000;

/**
 * The queue gauges' source (`ApiMetrics.watchQueues`): `readQueueDepths` over `uow`, one reading
 * kept for `freshMs` and shared by the gauges of a scrape and by scrapes that overlap. A reading
 * that fails (the database away) is logged and leaves both gauges without a sample, so the scrape
 * still answers with everything else (the storage faults among it).
 */
export function queueDepthsOf(
  uow: UnitOfWork<Pick<Repositories, 'queueDepths'>>,
  options: { logger: Logger; freshMs?: number; now?: () => number },
): QueueDepths {
  const freshMs = options.freshMs ?? QUEUE_DEPTHS_FRESH_MS;
  const now = options.now ?? Date.now;
  let kept: { readAt: number; depths: Promise<Depths | null> } | undefined;
  const reading = (): Promise<Depths | null> => {
    if (kept === undefined || now() - kept.readAt >= freshMs) {
      const depths = readQueueDepths({ uow }).catch((error: unknown) => {
        options.logger.warn({ err: error }, 'reading the queue depths for the metrics failed');
        return null;
      });
      kept = { readAt: now(), depths };
    }
    return kept.depths;
  };
  return {
    webhookDeliveriesPending: async () => (await reading())?.webhookDeliveriesPending ?? null,
    bulkOperationsByStatus: async () => {
      const depths = await reading();
      return depths === null ? null : new Map(Object.entries(depths.bulkOperationsByStatus));
    },
  };
}
