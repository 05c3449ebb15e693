import { randomUUID } from 'node:crypto';
import { RequestHandler } from 'express';
import { Logger } from 'pino';
import { principalOf } from './auth';

// The project's rule: letters, digits and a few separators, short enough for a log field.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:\-]{1,128}$/;

/** The URL with the value of any parameter named like the access token replaced (however its name is encoded). */
function redactedUrl(url: string): string {
  return url.replace(/([?&;])([^=&;]*)=([^&;]*)/g, (whole, separator: string, name: string) =>
    /access(_|%5f)token/i.test(name) ? `${separator}${name}=[redacted]` : whole,
  );
}

/**
 * `X-Request-Id` on every response (the caller's when sane, else a new UUID) and one pino JSON
 * line per request in the project's shape (`req`, `res`, `responseTime`, the principal's ids,
 * "request completed"; at error level with the cause for a failure of ours or an aborted request).
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    res.locals['requestId'] = id;
    const startedAt = performance.now();
    let written = false;
    const writeLine = () => {
      if (written) return;
      written = true;
      const failure = res.locals['error'] as unknown;
      const aborted = !res.writableFinished;
      const level = failure !== undefined || res.statusCode >= 500 || aborted ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const principal = principalOf(res);
      logger[level](
        {
          req: { id, method: req.method, url: redactedUrl(req.originalUrl) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - startedAt),
          ...(principal ? { brandId: principal.brandId, userId: principal.userId, tokenId: principal.tokenId } : {}),
          ...(failure !== undefined ? { err: failure } : {}),
        },
        failure !== undefined ? 'request errored' : aborted ? 'request aborted' : 'request completed',
      );
    };
    res.once('finish', writeLine);
    res.once('close', writeLine);
    next();
  };
}
