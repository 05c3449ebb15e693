import pino from 'pino';
import { loadConfig } from '../../config';
import { startEventRetention } from '../../infrastructure/event-retention';
import { startWebhookDispatcherFor } from '../../infrastructure/webhook-services';
import { CliCommand } from '../cli-command';

/**
 * `brand worker`: the background work of an API process without the API: the webhook dispatcher
 * and the events' retention, until SIGTERM or Ctrl-C. Run as many as the deliveries need; they
 * share the work through their claims. Logs are JSON lines on stdout, like the server's.
 */
export const workerCommand: CliCommand<Record<string, never>> = {
  name: 'worker',
  summary: 'Deliver webhooks (and keep the events to their retention) until stopped',
  configure() {},
  async run({ storage, clock, env }) {
    const config = loadConfig(env);
    const logger = pino({ level: config.logLevel });
    const dispatcher = startWebhookDispatcherFor(storage, config, logger);
    const stopRetention = startEventRetention({ uow: storage.uow, clock, logger });
    logger.info({ database: storage.dialect }, 'worker started: delivering webhooks');
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'));
      process.once('SIGINT', () => resolve('SIGINT'));
    });
    logger.info({ signal }, 'worker stopping: finishing the attempts under way');
    stopRetention();
    await dispatcher.stop();
    return { json: { stopped: true, signal }, text: `The worker stopped (${signal}).` };
  },
};
