import { types } from 'node:util';
import { ErrorRequestHandler } from 'express';
import { DomainError, isDomainError } from '@brand/core';
import { loggableError } from '../http/error-handler';
import { DOMAIN_ERROR_HTTP } from '../http/domain-error-status';
import { logFailureWith } from '../http/request-logging';
import { messagePage, sendPage } from './html-page';

/**
 * Failures of the server-rendered pages as HTML pages: a database outage a 503 page (with
 * Retry-After), a bad form body a 400 page, anything else a 500 page, its cause in the log only.
 * Never a crash, never JSON.
 */
export function pageErrorHandler(): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    if (isDomainError(error) && error.code === 'storage_unavailable') {
      const logged = loggableError(error);
      if (types.isNativeError(logged)) logFailureWith(res, logged);
      return sendPage(
        res,
        503,
        messagePage('Temporarily unavailable', 'Storage is unavailable; try again shortly.'),
        DOMAIN_ERROR_HTTP.storage_unavailable.headers,
      );
    }
    if (isDomainError(error) && error.code === 'validation_failed')
      return sendPage(res, 400, messagePage('The request cannot be used', describe(error)));
    const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
    if (typeof status === 'number' && status >= 400 && status < 500 && typeof type === 'string')
      return sendPage(
        res,
        status === 413 ? 413 : 400,
        messagePage('The form could not be read', 'Go back and try again.'),
      );
    if (types.isNativeError(error)) logFailureWith(res, error);
    sendPage(res, 500, messagePage('Something went wrong', 'The request failed on our side; try again.'));
  };
}

function describe(error: DomainError): string {
  return error.violations.map((v) => `${v.pointer}: ${v.detail}`).join('; ') || error.message;
}
