import { Router } from 'express';
import { pageErrorHandler } from '../browser/page-errors';
import { ConsoleDeps, consoleKit } from './console-context';
import { sessionRoutes } from './session.routes';
import { tokenRoutes } from './tokens.routes';

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
  tokenRoutes(kit, router);
  router.use('/console', pageErrorHandler());
  return router;
}
