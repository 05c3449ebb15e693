import { types } from 'node:util';
import { ErrorRequestHandler } from 'express';
import { DomainError, Violation, isDomainError } from '@brand/core';
import { ApiError, ErrorObject } from './api-error';
import { apiErrors, bearerChallenge } from './api-errors';
import { DOMAIN_ERROR_HTTP } from './domain-error-status';
import { logFailureWith } from './request-logging';
import { sendJson } from './send-json';

interface ErrorResponse {
  status: number;
  errors: ErrorObject[];
  headers: Readonly<Record<string, string>>;
}

/** The errors body-parser raises carry a `type` naming what went wrong with the body. */
interface BodyParserError {
  type: string;
  status: number;
  message: string;
  limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return (
    error instanceof Error &&
    typeof (error as Partial<BodyParserError>).type === 'string' &&
    typeof (error as Partial<BodyParserError>).status === 'number'
  );
}

/**
 * List parameters live in the query string: their violations name the parameter in the bracket
 * notation it was sent in (JSON:API `source.parameter`) and keep the core's pointer as well.
 */
function pointerToQueryParameter(pointer: string): string {
  const [first = '', ...rest] = pointer.split('/').filter((part) => part !== '');
  return first + rest.map((part) => `[${part}]`).join('');
}

function violationSource(code: DomainError['code'], violation: Violation): ErrorObject['source'] {
  return code === 'invalid_list_query'
    ? { parameter: pointerToQueryParameter(violation.pointer), pointer: violation.pointer }
    : { pointer: violation.pointer };
}

/**
 * On the older interface an error of the spec's code table (`data.legacyCode`, e.g. 40001)
 * answers with that integer as `code`; elsewhere, and for every other error, the core's code.
 */
function fromDomainError(error: DomainError, legacy: boolean): ErrorResponse {
  const { status, title, headers = {} } = DOMAIN_ERROR_HTTP[error.code];
  const { legacyCode, ...data } = error.data;
  const code = legacy && typeof legacyCode === 'number' ? legacyCode : error.code;
  const meta = Object.keys(data).length > 0 ? { meta: data } : {};
  const errors: ErrorObject[] =
    error.violations.length > 0
      ? error.violations.map((violation) => ({
          status,
          code,
          title,
          detail: violation.detail,
          source: violationSource(error.code, violation),
          ...meta,
        }))
      : [{ status, code, title, detail: error.message, ...meta }];
  const answerHeaders: Record<string, string> = { ...headers };
  if (status === 401) answerHeaders['WWW-Authenticate'] = bearerChallenge();
  // An error that knows when to come back (a throttled log-in) says so.
  if (typeof error.data.retry_after_seconds === 'number')
    answerHeaders['Retry-After'] = String(error.data.retry_after_seconds);
  return { status, errors, headers: answerHeaders };
}

function fromApiError(error: ApiError): ErrorResponse {
  return { status: error.status, errors: error.toErrorObjects(), headers: error.headers };
}

function fromBodyParserError(error: BodyParserError, bodyLimit: string): ApiError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return apiErrors.invalidJson(error.message);
    case 'entity.too.large':
      return apiErrors.payloadTooLarge(bodyLimit);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'unsupported_media_type', error.message, { source: { header: 'Content-Type' } });
    case 'request.aborted':
    case 'request.size.invalid':
      return new ApiError(400, 'bad_request', error.message);
    default:
      return null;
  }
}

/**
 * An error of the http-errors kind (Express, its router and body-parser raise them) that says
 * itself it is the client's: a 4xx status and `expose`, meaning its message is safe to show.
 */
function isClientHttpError(error: unknown): error is { status: number; message: string } {
  if (!(error instanceof Error)) return false;
  const { status, expose } = error as Error & { status?: unknown; expose?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true;
}

/** Turns anything thrown into the status, error objects and headers to answer with; unknown errors become a generic 500. */
export function toErrorResponse(error: unknown, bodyLimit: string, options: { legacy?: boolean } = {}): ErrorResponse {
  if (error instanceof ApiError) return fromApiError(error);
  if (isDomainError(error)) return fromDomainError(error, options.legacy ?? false);
  if (isBodyParserError(error)) {
    const translated = fromBodyParserError(error, bodyLimit);
    if (translated) return fromApiError(translated);
  }
  // Anything else the stack refuses as the client's fault stays a 4xx rather than posing as our bug.
  if (isClientHttpError(error)) return fromApiError(new ApiError(error.status, 'bad_request', error.message));
  return fromApiError(apiErrors.internal());
}

/**
 * What a log line should carry for a failure: the driver's own error behind a
 * `storage_unavailable` (its code and message say what happened to the database), else the error.
 */
export function loggableError(error: unknown): unknown {
  return isDomainError(error) && error.code === 'storage_unavailable' && error.cause !== undefined
    ? error.cause
    : error;
}

/**
 * The one place where failures become HTTP responses. Expected failures (ApiError, DomainError,
 * a malformed body) answer with their own status; anything else is a 500 whose body says nothing
 * about the cause, while the cause (with its stack) goes to the log line of the request.
 */
export function createErrorHandler(options: {
  bodyLimit: string;
  isLegacyPath?: (path: string) => boolean;
}): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const response = toErrorResponse(error, options.bodyLimit, { legacy: options.isLegacyPath?.(req.path) ?? false });
    const logged = loggableError(error);
    // isNativeError, not instanceof: a driver's error may come from another realm (a native addon
    // keeps the error class of the first realm that loaded it, as in a test runner's sandboxes).
    if (response.status >= 500 && types.isNativeError(logged) && !(error instanceof ApiError)) {
      logFailureWith(res, logged);
    }
    for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
    sendJson(res, response.status, { errors: response.errors });
  };
}
