import { Storage } from '@brand/persistence-kysely';
import { systemClock } from '@brand/core';
import { Logger } from 'pino';
import { AppConfig } from '../config';
import { AddressPolicy } from './address-policy';
import { HttpWebhookSender } from './http-webhook-sender';
import { WebhookDispatcherOptions, startWebhookDispatcher } from './webhook-dispatcher';

/** The webhook dispatcher of an API process or of `brand worker`, from the settings. */
export function startWebhookDispatcherFor(
  storage: Storage,
  config: AppConfig,
  logger: Logger,
  onPass?: WebhookDispatcherOptions['onPass'],
): { stop(): Promise<void> } {
  const { timeoutMs, retrySchedule, allowedHosts, leaseMs } = config.webhooks;
  return startWebhookDispatcher({
    ...(onPass ? { onPass } : {}),
    uow: storage.uow,
    clock: systemClock,
    sender: new HttpWebhookSender({
      timeoutMs,
      policy: AddressPolicy.withAllowlist(allowedHosts, 'webhook deliveries'),
    }),
    retrySchedule,
    logger,
    // Longer than an attempt can take (its deadline), with room for recording it: a claim never
    // lapses under a dispatcher still working on it, and a killed one's claims come free soon.
    leaseMs,
  });
}
