import { Request, Response } from 'express';

/** The label of a request no route took (an unknown path, or refused before its route matched: 401, 429, maintenance). */
export const UNMATCHED_ROUTE = 'unmatched';

// Kept on res.locals, which lives exactly as long as the request.
const ROUTE_TEMPLATE_KEY = 'routeTemplate';

/** Records the declared path (`/v10/orders/:id`) of the route that takes the request. */
export function takenByRoute(res: Response, template: string): void {
  res.locals[ROUTE_TEMPLATE_KEY] = template;
}

/**
 * The template of the route that answered (metrics and span names): never the raw path, whose
 * ids would make a label value per object. The declared routes record theirs (`takenByRoute`);
 * the OAuth and console routers declare full paths on routers at the root, which Express keeps
 * as `req.route`; anything else is `unmatched`.
 */
export function routeTemplateOf(req: Request, res: Response): string {
  const declared: unknown = res.locals[ROUTE_TEMPLATE_KEY];
  if (typeof declared === 'string') return declared;
  const { route } = req as { route?: { path?: unknown } };
  return typeof route?.path === 'string' ? route.path : UNMATCHED_ROUTE;
}
