import { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs Express handlers one after another as a single handler, with Express 5's rules for each
 * step: a step moves on by calling `next()`, `next(error)` (or a throw, or a rejected promise)
 * skips the rest and hands the error on, and `next('route')` or `next('router')` skips the rest.
 *
 * Why not a router: every handler on a router is a layer the router matches against the path,
 * wraps and traces on every request, and a router entered from another one also rewrites and
 * restores the request's URL. The fixed steps every API request takes (its log line, the gates,
 * the route's own checks) need none of that, and the layers were a measured share of a small
 * request's CPU and garbage (docs/performance.md).
 */
export function inSequence(handlers: readonly RequestHandler[]): RequestHandler {
  for (const handler of handlers)
    if (handler.length > 3) throw new Error('inSequence runs request handlers, not error handlers');
  if (handlers.length === 1) return handlers[0]!;
  return (req: Request, res: Response, done: NextFunction): void => {
    let index = 0;
    const next = (signal?: unknown): void => {
      if (signal) {
        done(signal === 'route' || signal === 'router' ? undefined : signal);
        return;
      }
      const handler = handlers[index];
      index += 1;
      if (handler === undefined) {
        done();
        return;
      }
      try {
        const returned: unknown = handler(req, res, next);
        if (isThenable(returned))
          returned.then(undefined, (error: unknown) => next(error ?? new Error('Rejected promise')));
      } catch (error) {
        next(error ?? new Error('Thrown without an error'));
      }
    };
    next();
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
