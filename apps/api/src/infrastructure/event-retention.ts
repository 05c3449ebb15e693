import { Clock, Repositories, UnitOfWork, pruneEvents } from '@brand/core';
import { Logger } from 'pino';

/** How often each process deletes the events past their retention. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** The first pass waits this long after the start, so it does not compete with a starting fleet's first requests. */
const FIRST_PASS_AFTER_MS = 60 * 1000;

/**
 * Keeps the events feed to its retention (`EVENT_RETENTION_DAYS`): every API process deletes the
 * expired events now and then. Several processes doing so at once only find nothing to delete;
 * a pass that fails (the database away) is logged and the next one tries again. Answers a
 * function that stops the passes (at shutdown).
 */
export function startEventRetention(deps: {
  uow: UnitOfWork<Pick<Repositories, 'events' | 'webhookDeliveries'>>;
  clock: Clock;
  logger: Logger;
  everyMs?: number;
  firstPassAfterMs?: number;
}): () => void {
  const pass = (): void => {
    pruneEvents(deps).then(
      (deleted) => {
        if (deleted > 0) deps.logger.info({ deleted }, 'expired events deleted');
      },
      (error: unknown) => deps.logger.warn({ err: error }, 'deleting expired events failed; trying again later'),
    );
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    pass();
    interval = setInterval(pass, deps.everyMs ?? PRUNE_EVERY_MS);
    interval.unref();
  }, deps.firstPassAfterMs ?? FIRST_PASS_AFTER_MS);
  first.unref();
  return () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
  };
}
