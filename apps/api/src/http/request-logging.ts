import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Logger } from 'pino';
import { Request, RequestHandler, Response } from 'express';
import { traceOf } from '../tracing/request-trace';
import { principalOf } from './request-context';
import { arrivalOf } from './requests-in-turn';

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

// The request's id and, for a failure on our side, the error to log with it; kept on res.locals,
// which lives exactly as long as the request.
const REQUEST_ID_KEY = 'requestId';
const FAILURE_KEY = 'failure';

/** The id of the request (sent back as `X-Request-Id` and written to both logs). */
export function requestIdFor(res: Response): string {
  return res.locals[REQUEST_ID_KEY] as string;
}

/** Has the request's log line written at error level with this error and its stack (a 500). */
export function logFailureWith(res: Response, error: Error): void {
  res.locals[FAILURE_KEY] = error;
}

/** Told of every answered (or aborted) request, with its duration: the metrics. */
export type RequestObserver = (req: Request, res: Response, durationMs: number) => void;

/**
 * One JSON log line per request, written when the response is finished (or the connection
 * closed before), carrying the request id (and the trace's ids when traced), and the
 * `X-Request-Id` response header on every response, errors included. Headers are not logged: they hold tokens and app keys.
 *
 * The line has the shape pino-http writes (`req`, `res`, `responseTime`, `request completed`),
 * but it is one call on the app's logger: pino-http made a child logger for every request, a
 * cost a small authenticated request paid whether or not a line was written.
 */
export function requestLogging(logger: Logger, observe?: RequestObserver): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdOf(req);
    res.locals[REQUEST_ID_KEY] = requestId;
    res.setHeader('X-Request-Id', requestId);
    // From its arrival when it waited its turn (requests-in-turn.ts): the wait is part of its time.
    const startedAt = arrivalOf(req) ?? performance.now();
    let written = false;
    const writeLine = (): void => {
      if (written) return;
      written = true;
      const durationMs = performance.now() - startedAt;
      observe?.(req, res, durationMs);
      const failure = res.locals[FAILURE_KEY] as Error | undefined;
      const aborted = !res.writableFinished;
      const level = failure || res.statusCode >= 500 || aborted ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const principal = principalOf(res);
      const trace = traceOf(res);
      logger[level](
        {
          req: { id: requestId, method: req.method, url: redactedUrl(req.originalUrl) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(durationMs),
          ...(principal ? { brandId: principal.brandId, userId: principal.userId, tokenId: principal.tokenId } : {}),
          // The names OpenTelemetry's log correlation uses, so log tools link the line to its trace.
          ...(trace ? { trace_id: trace.traceId, span_id: trace.spanId } : {}),
          ...(failure ? { err: failure } : {}),
        },
        failure ? 'request errored' : aborted ? 'request aborted' : 'request completed',
      );
    };
    res.once('finish', writeLine);
    res.once('close', writeLine);
    next();
  };
}
