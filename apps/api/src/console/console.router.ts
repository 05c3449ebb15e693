import { Router } from 'express';
import { pageErrorHandler } from '../browser/page-errors';
import { appRoutes } from './apps.routes';
import { ConsoleDeps, consoleKit } from './console-context';
import { integrationHealthRoutes } from './integration-health.routes';
import { requestLogRoutes } from './request-log.routes';
import { sessionRoutes } from './session.routes';
import { tokenRoutes } from './tokens.routes';
import { webhookRoutes } from './webhooks.routes';

export type ConsoleRouterDeps = ConsoleDeps;

/**
 * The console (DESIGN §11), server-rendered under `/console`. It shares the OAuth pages' session
 * cookie, CSRF tokens, page layout and HTML error pages; each section is a file of routes on one
 * shared pipeline (`consoleKit`). Every page and action is scoped to the session's brand and
 * user: another brand's resource is a 404 page and nothing changes.
 */
export function consoleRouter(deps: ConsoleRouterDeps): Router {
  const router = Router();
  const kit = consoleKit(deps);
  sessionRoutes(kit, router);
  appRoutes(kit, router);
  tokenRoutes(kit, router);
  webhookRoutes(kit, router);
  requestLogRoutes(kit, router);
  integrationHealthRoutes(kit, router);
  router.use('/console', pageErrorHandler());
  return router;
}
