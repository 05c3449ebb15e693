import { RequestHandler } from 'express';
import { pathIsUnder } from './route';

/**
 * Runs `handler` (a router) only for paths under one of `prefixes`, and skips it at once for every
 * other request. The OAuth and console routers declare full paths and are mounted on the app
 * without a path; without this gate every API request would test its path against each of their
 * routes before reaching its own.
 */
export function onlyUnder(prefixes: readonly string[], handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (prefixes.some((prefix) => pathIsUnder(req.path, prefix))) return handler(req, res, next);
    next();
  };
}
