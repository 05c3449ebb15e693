import { hash } from 'node:crypto';
import { Request, Response } from 'express';
import { ApiError } from './api-error';
import { principalOf } from './request-context';
import { RouteDefinition } from './route';
import { requestTransactions } from './shared-transactions';

/** The headers of conditional requests (DESIGN §14, RFC 9110 §13). */
export const ETAG_HEADER = 'ETag';
export const IF_MATCH_HEADER = 'If-Match';
export const IF_NONE_MATCH_HEADER = 'If-None-Match';

/**
 * The strong entity tag of a JSON answer: a hash of its exact bytes. Every answer of the current
 * interface is written by `JSON.stringify` with a fixed key order (the presenters'), so the tag
 * changes exactly when something the answer shows changes. 128 bits of SHA-256, as base64url.
 */
export function entityTagOf(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 22)}"`;
}

/** A parsed `If-Match` / `If-None-Match`: `*`, or the listed tags (with whether each was weak). */
export type EntityTagCondition = { any: true } | { any: false; tags: { tag: string; weak: boolean }[] };

// One member of the list: an optional W/ and a quoted opaque tag (no quote or control character inside).
const ENTITY_TAG = /\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/y;

/** Parses a conditional header as RFC 9110 writes it; null when it is not one. */
export function parseEntityTagCondition(value: string): EntityTagCondition | null {
  if (value.trim() === '*') return { any: true };
  const tags: { tag: string; weak: boolean }[] = [];
  ENTITY_TAG.lastIndex = 0;
  while (ENTITY_TAG.lastIndex < value.length) {
    const match = ENTITY_TAG.exec(value);
    if (!match) return null;
    tags.push({ tag: match[2]!, weak: match[1] !== undefined });
  }
  return tags.length > 0 ? { any: false, tags } : null;
}

/** `If-None-Match` compares weakly (RFC 9110 §13.1.2): a weak tag still names the same representation. */
export function noneMatchHolds(condition: EntityTagCondition, current: string): boolean {
  return condition.any ? false : !condition.tags.some(({ tag }) => tag === current);
}

/** `If-Match` compares strongly (RFC 9110 §13.1.1): a weak tag never matches. */
export function matchHolds(condition: EntityTagCondition, current: string): boolean {
  return condition.any || condition.tags.some(({ tag, weak }) => !weak && tag === current);
}

/** Reads a conditional header of the request; undefined when absent, a 400 naming it when malformed. */
export function conditionOf(req: Request, header: string): EntityTagCondition | undefined {
  const value = req.get(header);
  if (value === undefined) return undefined;
  const condition = parseEntityTagCondition(value);
  if (condition === null)
    throw new ApiError(
      400,
      'invalid_header',
      `${header} must be * or a comma-separated list of entity tags as the ETag header gives them ("…" or W/"…")`,
      { source: { header } },
    );
  return condition;
}

/**
 * What a route does with conditional requests, worked out once from the route table:
 * - the GET of one resource tags its answer and answers `If-None-Match`;
 * - a write of one resource (PATCH, PUT, DELETE on its path) or one of its actions (a POST one
 *   segment below it) takes `If-Match`, compared with the tag that resource's GET would give;
 * - a write whose answer is a resource as its GET shows it (same declared shape) tags its answer.
 * Only the current interface (`/v10`) does this; the other surfaces keep their wire as the spec
 * writes it.
 */
export interface ConditionalRole {
  tagsAnswer: boolean;
  answersIfNoneMatch: boolean;
  /** The GET of the resource whose tag `If-Match` is compared with; absent: the route ignores `If-Match`. */
  resource?: RouteDefinition;
}

const NO_ROLE: ConditionalRole = { tagsAnswer: false, answersIfNoneMatch: false };

/** The GET of one resource: its path ends in the resource's id, or it names a singleton. */
export function isSingleResourceGet(route: RouteDefinition): boolean {
  return (
    route.method === 'get' &&
    route.auth === 'current' &&
    route.list === undefined &&
    route.response.schema !== undefined &&
    route.response.binary === undefined &&
    (route.singleton === true || /\/:[A-Za-z0-9_]+$/.test(route.path))
  );
}

export function conditionalRoles(routes: readonly RouteDefinition[]): Map<RouteDefinition, ConditionalRole> {
  const singleGets = routes.filter(isSingleResourceGet);
  const getAt = new Map(singleGets.map((route) => [route.path, route]));
  // Compared by their JSON: the routers declare `wrapped('order', OrderSchema)` afresh per route.
  const shapeOf = (route: RouteDefinition) => JSON.stringify(route.response.schema);
  const shownShapes = new Set(singleGets.map(shapeOf));
  const roles = new Map<RouteDefinition, ConditionalRole>();
  for (const route of routes) {
    if (route.auth !== 'current') continue;
    if (getAt.get(route.path) === route) {
      roles.set(route, { tagsAnswer: true, answersIfNoneMatch: true });
      continue;
    }
    if (route.method === 'get') continue;
    const resourcePath = route.method === 'post' ? route.path.slice(0, route.path.lastIndexOf('/')) : route.path;
    const resource = getAt.get(resourcePath);
    const tagsAnswer =
      route.response.schema !== undefined &&
      route.response.showsLessThanGet === undefined &&
      shownShapes.has(shapeOf(route));
    if (resource || tagsAnswer)
      roles.set(route, { tagsAnswer, answersIfNoneMatch: false, ...(resource ? { resource } : {}) });
  }
  return roles;
}

export const roleOf = (roles: ReadonlyMap<RouteDefinition, ConditionalRole>, route: RouteDefinition): ConditionalRole =>
  roles.get(route) ?? NO_ROLE;

/** The resource a request acts on, as a path (`/v10/orders/7`): the key of its lock. */
function resourcePathOf(resource: RouteDefinition, params: Record<string, string>): string {
  return resource.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => params[name] ?? '');
}

/**
 * Checks `If-Match` inside the request's shared transaction, before the write runs in it: takes
 * the resource's lock, renders the resource as its GET would (a missing one answers that GET's
 * 404), and refuses with 412 `precondition_failed` and the current `ETag` when the tag differs.
 * The lock is held until the write commits, so a second writer with the same tag reads the state
 * the first left, and is refused.
 */
export async function checkIfMatch(
  resource: RouteDefinition,
  condition: EntityTagCondition,
  req: Request,
  res: Response,
): Promise<void> {
  const shared = requestTransactions.current();
  const principal = principalOf(res);
  if (!shared || !principal) throw new Error(`${req.method} ${req.path} checked If-Match outside a shared transaction`);
  const params = req.params as Record<string, string>;
  await shared.join((tx) => tx.resourceLocks.hold(principal.brandId, resourcePathOf(resource, params)));
  const shown = await resource.handle({
    principal,
    body: undefined,
    query: undefined,
    includes: [],
    params,
    req,
    res,
    answerWith: () => undefined,
  });
  const current = entityTagOf(JSON.stringify(shown));
  if (!matchHolds(condition, current)) {
    throw new ApiError(
      412,
      'precondition_failed',
      `The resource changed since the If-Match tag was read (its ETag is now ${current}): read it again, and send the change with the new tag if it still applies. Nothing was changed.`,
      { source: { header: IF_MATCH_HEADER }, headers: { [ETAG_HEADER]: current } },
    );
  }
}
