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

const TOKEN_PARAMETER = 'access_token';

/**
 * Rounds of percent-decoding applied to a name: one is what the query parser does, the others
 * catch names encoded again; bounded, so a name of nested `%25`s costs no more than a few passes.
 */
const DECODING_ROUNDS = 4;

/**
 * Whether a raw query parameter name could carry the access token. The query parser decodes
 * names before authentication reads them, so `access%5Ftoken`, `%61ccess_token` and
 * `access_token[]` all reach it. The check also decodes names encoded more than once and
 * ignores case and brackets (`ACCESS_TOKEN`, `x[access_token]`): it errs towards redacting a
 * parameter that would not have authenticated.
 */
function mayCarryAccessToken(rawName: string): boolean {
  let name = rawName.replace(/\+/g, ' ');
  for (let round = 0; round < DECODING_ROUNDS && name.includes('%'); round += 1) {
    // Byte by byte: a name is compared with an ASCII one, and a malformed sequence must not throw.
    name = name.replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return name
    .toLowerCase()
    .split(/[[\]]/)
    .some((part) => part.trim() === TOKEN_PARAMETER);
}

/** The URL with the value of every parameter that may carry the access token replaced, however its name is spelled. */
export function redactedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  // `;` is no separator to the query parser, but a value after one must not leak either.
  const parameters = url
    .slice(start + 1)
    .split(/([&;])/)
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      return equals >= 0 && mayCarryAccessToken(name) ? `${name}=[redacted]` : part;
    });
  return url.slice(0, start + 1) + parameters.join('');
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
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactedUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customProps: (_req, res) => {
      // Express hands pino-http its own response object, so the principal set by authentication is there.
      const principal = 'locals' in res ? principalOf(res as Parameters<typeof principalOf>[0]) : null;
      return principal ? { brandId: principal.brandId, userId: principal.userId, tokenId: principal.tokenId } : {};
    },
  });
  return middleware;
}
