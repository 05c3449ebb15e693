import { RequestHandler } from 'express';
import { DomainError, pointerToPath } from '@brand/core';
import { InvalidQueryParameters } from './api-error';
import { apiErrors } from './api-errors';

/**
 * How deep a JSON body may nest, counting the body itself as level 1. The deepest body a DTO
 * describes (`/products/0/variants/0/prices/EUR/sales_price`) is 7 levels; free-form custom
 * fields (`meta`) get the rest. Deeper bodies are refused before anything walks them
 * recursively: class-transformer and class-validator recurse per level, and a 1 MB body can
 * nest ~500,000 levels, far beyond the call stack.
 */
export const MAX_JSON_DEPTH = 32;

/** A key no JSON body may use: assigning it (`target[key] = …`) replaces an object's prototype instead of setting data. */
const PROTOTYPE_KEY = '__proto__';

/** U+0000. Postgres cannot store it in text (`invalid byte sequence for encoding "UTF8": 0x00`), so no dialect takes it. */
const NUL = '\u0000';

export type JsonRefusal =
  | { kind: 'too_deep'; path: string[] }
  | { kind: 'nul_in_value'; path: string[] }
  | { kind: 'nul_in_key'; path: string[] }
  | { kind: 'prototype_key'; path: string[] };

interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
  depth: number;
}

function pathOf(visit: Visit): string[] {
  const path: string[] = [];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Whether a parsed JSON value holds nothing `findJsonRefusal` would report. Every body is checked,
 * so this walk allocates nothing per value: only containers go on its stack, with their depth.
 */
function isAcceptableJson(root: unknown, maxDepth: number): boolean {
  if (typeof root === 'string') return !root.includes(NUL);
  if (root === null || typeof root !== 'object') return true;
  const containers: object[] = [root];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return false;
    const isArray = Array.isArray(container);
    const keys = isArray ? null : Object.keys(container);
    const length = isArray ? container.length : keys!.length;
    for (let index = 0; index < length; index += 1) {
      let value: unknown;
      if (isArray) {
        value = (container as unknown[])[index];
      } else {
        const key = keys![index]!;
        if (key === PROTOTYPE_KEY || key.includes(NUL)) return false;
        value = (container as Record<string, unknown>)[key];
      }
      if (typeof value === 'string') {
        if (value.includes(NUL)) return false;
      } else if (value !== null && typeof value === 'object') {
        containers.push(value);
        depths.push(depth + 1);
      }
    }
  }
  return true;
}

/**
 * The first thing in a parsed JSON value (a body, or a query string as qs parsed it) that no
 * request may carry: nesting beyond `maxDepth`, a NUL character in a string or a key, or a
 * `__proto__` key. Walks with an explicit stack, so a hostile depth cannot exhaust the call stack.
 * Only when the light walk above finds something is the walk repeated keeping track of paths.
 */
export function findJsonRefusal(root: unknown, maxDepth = MAX_JSON_DEPTH): JsonRefusal | null {
  if (isAcceptableJson(root, maxDepth)) return null;
  const stack: Visit[] = [{ value: root, key: null, parent: null, depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return { kind: 'nul_in_value', path: pathOf(visit) };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const depth = visit.depth + 1;
    if (depth > maxDepth) return { kind: 'too_deep', path: pathOf(visit) };
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1)
        stack.push({ value: value[index], key: String(index), parent: visit, depth });
      continue;
    }
    const keys = Object.keys(value);
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index]!;
      const child: Visit = { value: (value as Record<string, unknown>)[key], key, parent: visit, depth };
      if (key === PROTOTYPE_KEY) return { kind: 'prototype_key', path: pathOf(child) };
      if (key.includes(NUL)) return { kind: 'nul_in_key', path: pathOf(child) };
      stack.push(child);
    }
  }
  return null;
}

/** RFC 6901: `~` and `/` inside a key are escaped, so every key maps to exactly one pointer. */
export function jsonPointer(path: readonly string[]): string {
  return path.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** `filter_groups[0][filters][0][value]`: a query parameter in the bracket notation it was sent in. */
function queryParameter(path: readonly string[]): string {
  const [first = '', ...rest] = path;
  return first + rest.map((key) => `[${key}]`).join('');
}

/** What is wrong, in words; `name` turns a path into how the caller wrote it (a dotted path, a bracketed parameter). */
function refusalDetail(refusal: JsonRefusal, name: (path: readonly string[]) => string): string {
  const here = name(refusal.path) || 'the body';
  switch (refusal.kind) {
    case 'too_deep':
      return `${here} nests deeper than ${MAX_JSON_DEPTH} levels`;
    case 'nul_in_value':
      return `${here} must not contain the NUL character (\\u0000)`;
    case 'nul_in_key':
      // The key itself is not repeated: it holds the very character refused.
      return `${name(refusal.path.slice(0, -1)) || 'the body'} has a key containing the NUL character (\\u0000), which is not accepted`;
    case 'prototype_key':
      return `${name(refusal.path.slice(0, -1)) || 'the body'} has the key __proto__, which is not accepted`;
  }
}

/**
 * Throws for a JSON body no route may take: 400 `body_too_deep` for excessive nesting, 422
 * `validation_failed` for a NUL character or a `__proto__` key, each pointing at the place.
 */
export function refuseUnsafeJsonBody(body: unknown): void {
  const refusal = findJsonRefusal(body);
  if (!refusal) return;
  const pointer = jsonPointer(refusal.path);
  const dotted = (path: readonly string[]): string => pointerToPath(jsonPointer(path));
  if (refusal.kind === 'too_deep') throw apiErrors.bodyTooDeep(MAX_JSON_DEPTH, { pointer, path: dotted(refusal.path) });
  throw DomainError.validation([{ pointer, detail: refusalDetail(refusal, dotted) }]);
}

/**
 * 422 `invalid_query_parameters` for a NUL character in any query parameter (list filter
 * values included), naming the parameter, before any route reads the query. The query parser
 * (qs) already limits nesting and drops `__proto__`, `constructor` and other prototype keys.
 */
export function refuseUnsafeQuery(): RequestHandler {
  return (req, _res, next) => {
    const refusal = findJsonRefusal(req.query);
    if (refusal) {
      throw new InvalidQueryParameters([
        { parameter: queryParameter(refusal.path), detail: refusalDetail(refusal, queryParameter) },
      ]);
    }
    next();
  };
}

/**
 * 400 `invalid_path` for a path that is not percent-encoded UTF-8 (`/v10/orders/%FF`). The router
 * decodes path parameters while matching a route and throws a `URIError` for such a path, which
 * would otherwise reach the error handler as an unexpected failure (500).
 */
export function refuseUndecodablePath(): RequestHandler {
  return (req, _res, next) => {
    const { path } = req;
    // Without a percent sign there is nothing to decode.
    if (path.includes('%')) {
      try {
        decodeURIComponent(path);
      } catch {
        throw apiErrors.invalidPath();
      }
    }
    next();
  };
}
