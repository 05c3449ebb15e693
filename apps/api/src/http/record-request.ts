import { RequestHandler } from 'express';
import { Clock } from '@brand/core';
import { RequestLogBuffer } from '../request-log/request-log-buffer';
import { principalOf } from './request-context';
import { requestIdFor } from './request-logging';
import { routeTemplateOf } from './route-template';
import { traceOf } from '../tracing/request-trace';

/**
 * Records an authenticated request on the token's user once its response is sent (so the status
 * is known). The path is recorded without its query string, which may hold the access token.
 */
export function recordRequest(deps: { buffer: RequestLogBuffer; clock: Clock }): RequestHandler {
  return (req, res, next) => {
    const principal = principalOf(res);
    if (!principal) {
      next();
      return;
    }
    const startedAt = performance.now();
    const createdAt = deps.clock.now();
    res.once('finish', () => {
      deps.buffer.add({
        brandId: principal.brandId,
        userId: principal.userId,
        appId: principal.appId,
        tokenId: principal.tokenId,
        method: req.method,
        path: req.originalUrl.split('?')[0] ?? req.originalUrl,
        route: routeTemplateOf(req, res),
        status: res.statusCode,
        durationMs: Math.round(performance.now() - startedAt),
        requestId: requestIdFor(res),
        traceId: traceOf(res)?.traceId ?? null,
        createdAt,
      });
    });
    next();
  };
}
