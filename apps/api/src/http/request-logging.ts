import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { RequestHandler } from 'express';
import { principalOf } from './request-context';

// Letters, digits and a few separators, short enough for a log field; anything else is replaced.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:\-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is sane (so its traces line up with ours), else makes one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The URL without the access_token query parameter, which must never reach a log. */
export function redactedUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&]*/gi, '$1[redacted]');
}

/**
 * One JSON log line per request (pino-http) carrying its request id, and the `X-Request-Id`
 * response header on every response, errors included. Headers are not logged: they hold tokens
 * and app keys.
 */
export function requestLogging(logger: Logger): RequestHandler {
  const middleware = pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const id = requestIdOf(req);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactedUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customProps: (_req, res) => {
      // Express hands pino-http its own response object, so the principal set by authentication is there.
      const principal = 'locals' in res ? principalOf(res as Parameters<typeof principalOf>[0]) : null;
      return principal ? { brandId: principal.brandId, userId: principal.userId, tokenId: principal.tokenId } : {};
    },
  });
  return middleware as unknown as RequestHandler;
}
