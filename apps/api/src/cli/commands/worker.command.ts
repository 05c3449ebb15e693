import pino from 'pino';
import { loadConfig } from '../../config';
import { startHousekeeping } from '../../infrastructure/housekeeping';
import { startWebhookDispatcherFor } from '../../infrastructure/webhook-services';
import { CliCommand } from '../cli-command';

/**
 * `brand worker`: the background work of an API process without the API: the webhook dispatcher
 * and the housekeeping (the events' and the request log's retention, expired credentials), until
 * SIGTERM or Ctrl-C. Run as many as the deliveries need; they
 * share the work through their claims. Logs are JSON lines on stdout, like the server's.
 */
export const workerCommand: CliCommand<Record<string, never>> = {
  name: 'worker',
  summary: 'Deliver webhooks (and delete expired events, requests and credentials) until stopped',
  configure() {},
  async run({ storage, clock, env }) {
    const config = loadConfig(env);
    const logger = pino({ level: config.logLevel });
    const dispatcher = startWebhookDispatcherFor(storage, config, logger);
    const stopHousekeeping = startHousekeeping({
      uow: storage.uow,
      clock,
      logger,
      requestLogRetentionDays: config.requestLogRetentionDays,
    });
    logger.info({ database: storage.dialect }, 'worker started: delivering webhooks');
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    logger.info({ signal }, 'worker stopping: finishing the attempts under way');
    stopHousekeeping();
    await dispatcher.stop();
    return { json: { stopped: true, signal }, text: `The worker stopped (${signal}).` };
  },
};
