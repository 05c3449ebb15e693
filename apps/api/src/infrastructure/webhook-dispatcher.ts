import { randomUUID } from 'node:crypto';
import {
  Clock,
  DispatchPass,
  Repositories,
  UnitOfWork,
  WebhookSender,
  deliverDueWebhooks,
  releaseWebhookClaims,
} from '@brand/core';
import { Logger } from 'pino';
import { startBackgroundLoop } from './background-loop';

export interface WebhookDispatcherOptions {
  uow: UnitOfWork<Pick<Repositories, 'events' | 'webhookDeliveries' | 'webhookEndpoints'>>;
  clock: Clock;
  sender: WebhookSender;
  retrySchedule: readonly number[];
  logger: Logger;
  /** Pause between passes that found nothing to do (default 1 s). */
  idleMs?: number;
  /** Deliveries claimed per pass (default 20). */
  batch?: number;
  /** How long a claim holds; longer than an attempt's deadline (default: the timeout + 30 s). */
  leaseMs: number;
  /** Told what each pass that claimed deliveries did (the metrics count the outcomes). */
  onPass?: (pass: DispatchPass) => void;
}

/**
 * Runs webhook dispatcher passes in this process until stopped: a pass right after one that
 * found work, else after `idleMs`. Every API process runs one (and `brand worker` runs one
 * alone); claims are leases, so they share the work. `stop()` lets the running pass finish its
 * attempts and record them, then releases whatever this dispatcher still holds, so another
 * process takes it at once instead of after the lease.
 */
export function startWebhookDispatcher(options: WebhookDispatcherOptions): { stop(): Promise<void> } {
  const owner = `dispatcher-${randomUUID()}`;
  const loop = startBackgroundLoop(
    async () => {
      const result = await deliverDueWebhooks(
        { uow: options.uow, clock: options.clock, sender: options.sender, retrySchedule: options.retrySchedule },
        { owner, leaseMs: options.leaseMs, limit: options.batch ?? 20 },
      );
      if (result.claimed > 0) {
        options.onPass?.(result);
        options.logger.debug({ ...result }, 'webhook deliveries attempted');
      }
      return result.claimed > 0;
    },
    {
      idleMs: options.idleMs ?? 1000,
      onError: (error) => options.logger.warn({ err: error }, 'a webhook dispatcher pass failed; trying again'),
    },
  );

  return {
    async stop() {
      await loop.stop();
      await releaseWebhookClaims({ uow: options.uow }, { owner }).catch((error: unknown) =>
        options.logger.warn({ err: error }, 'releasing webhook claims failed; they lapse with their lease'),
      );
    },
  };
}
