import express, { RequestHandler } from 'express';
import { apiErrors } from './api-errors';
import { refuseUnsafeJsonBody } from './input-guard';

const JSON_TYPES = ['application/json', 'application/*+json'];
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return (
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0')
  );
}

/**
 * 415 for a POST/PUT/PATCH whose body is not declared as JSON. A request with no body may omit
 * Content-Type (actions such as `/approve` carry none). `streamedPaths` (`POST /v10/bulk-operations`)
 * are the routes that read a body of another type themselves.
 */
export function requireJsonContentType(streamedPaths: ReadonlySet<string> = new Set()): RequestHandler {
  return (req, _res, next) => {
    if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req.headers)) {
      next();
      return;
    }
    // A route that streams a body of its own media type checks that type itself.
    if (streamedPaths.has(`${req.method} ${req.path}`)) {
      next();
      return;
    }
    if (!req.is(JSON_TYPES)) {
      throw apiErrors.unsupportedMediaType(req.get('Content-Type'));
    }
    next();
  };
}

/**
 * Parses JSON bodies up to `limit`. Only objects and arrays are accepted at the top level;
 * unparseable JSON and oversized bodies surface as body-parser errors, which the error handler
 * turns into 400 invalid_json and 413. A parsed body is then checked for what no route may take
 * (excessive nesting, NUL characters, `__proto__` keys) before any DTO or use case sees it.
 */
export function parseJsonBody(limit: string): RequestHandler {
  const parse = express.json({ limit, strict: true, type: JSON_TYPES });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      try {
        refuseUnsafeJsonBody(req.body);
      } catch (refusal) {
        next(refusal);
        return;
      }
      next();
    });
  };
}
