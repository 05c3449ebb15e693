import { loadConfig } from '../../config';
import { startHousekeeping } from '../../infrastructure/housekeeping';
import { startWebhookDispatcherFor } from '../../infrastructure/webhook-services';
import { imageServicesFrom } from '../../infrastructure/image-services';
import { serverLogger } from '../../infrastructure/server-logger';
import { startBulkRunner } from '../../bulk/bulk-runner';
import { CliCommand } from '../cli-command';

/**
 * `brand worker`: the background work of an API process without the API: the webhook dispatcher,
 * the bulk operation runner and the housekeeping (the events' and the request log's retention,
 * expired credentials), until SIGTERM or Ctrl-C. Run as many as the deliveries and operations
 * need; they share the work through their claims. Logs are JSON lines on stdout, like the server's.
 */
export const workerCommand: CliCommand<Record<string, never>> = {
  name: 'worker',
  summary:
    'Deliver webhooks and run bulk operations (and delete expired events, requests and credentials) until stopped',
  configure() {},
  async run({ storage, clock, env }) {
    const config = loadConfig(env);
    const logger = serverLogger(config.logLevel);
    const dispatcher = startWebhookDispatcherFor(storage, config, logger);
    const bulkRunner = startBulkRunner({
      storage,
      clock,
      images: imageServicesFrom(config.images),
      logger,
      leaseMs: config.bulk.leaseMs,
    });
    const stopHousekeeping = startHousekeeping({
      uow: storage.uow,
      clock,
      logger,
      requestLogRetentionDays: config.requestLogRetentionDays,
    });
    logger.info({ database: storage.dialect }, 'worker started: delivering webhooks, running bulk operations');
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    logger.info({ signal }, 'worker stopping: finishing the attempts under way');
    stopHousekeeping();
    await dispatcher.stop();
    await bulkRunner.stop();
    return { json: { stopped: true, signal }, text: `The worker stopped (${signal}).` };
  },
};
