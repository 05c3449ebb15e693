import express, { Application, Request, RequestHandler, Response } from 'express';
import { Repositories, UnitOfWork, missingScopes } from '@brand/core';
import { apiErrors } from './api-errors';
import { AuthKind } from './authenticate';
import { parseJsonBody, requireJsonContentType } from './json-body';
import { refuseUndecodablePath, refuseUnsafeQuery } from './input-guard';
import { sendJson, sendJsonText } from './send-json';
import {
  ConditionalRole,
  ETAG_HEADER,
  IF_MATCH_HEADER,
  IF_NONE_MATCH_HEADER,
  checkIfMatch,
  conditionOf,
  conditionalRoles,
  entityTagOf,
  noneMatchHolds,
  roleOf,
} from './conditional-requests';
import { inSequence } from './in-sequence';
import { inSharedTransaction } from './shared-transactions';
import {
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyDeps,
  RouteAnswer,
  answerIdempotently,
  takesIdempotencyKeys,
} from './idempotency';
import { principalOf } from './request-context';
import { giveBackHit } from './rate-limit';
import { RouteDefinition, Surface, belowPrefix } from './route';
import { takenByRoute } from './route-template';
import { validateBody, validateQuery } from './validate-dto';
import { detailIncludes } from '../listing/list-request';

const METHODS_WITH_BODY = new Set(['post', 'put', 'patch']);
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Every route of every surface, checked once for clashes. */
export class RouteRegistry {
  readonly routes: readonly RouteDefinition[];
  /** What each route does with ETags and conditional headers (DESIGN §14). */
  readonly conditionalRoles: ReadonlyMap<RouteDefinition, ConditionalRole>;
  /** Every surface prefix, longest first, so the first one a path is under is the longest match. */
  private readonly prefixesLongestFirst: readonly { prefix: string; under: string; surface: Surface }[];

  constructor(readonly surfaces: readonly Surface[]) {
    this.routes = surfaces.flatMap((surface) => surface.routes);
    this.conditionalRoles = conditionalRoles(this.routes);
    this.prefixesLongestFirst = surfaces
      .flatMap((surface) => surface.prefixes.map((prefix) => ({ prefix, under: belowPrefix(prefix), surface })))
      .sort((a, b) => b.prefix.length - a.prefix.length);
    const seen = new Set<string>();
    for (const route of this.routes) {
      const key = `${route.method} ${route.path.toLowerCase()}`;
      if (seen.has(key)) throw new Error(`route ${route.method.toUpperCase()} ${route.path} is declared twice`);
      seen.add(key);
    }
  }

  /** The surface owning a request path: the one with the longest matching prefix (asked on every request). */
  surfaceFor(path: string): Surface | null {
    // pathIsUnder, with the slash-ended prefix made once instead of on every request.
    for (const { prefix, under, surface } of this.prefixesLongestFirst)
      if (path === prefix || path.startsWith(under)) return surface;
    return null;
  }

  /** The methods declared for a path (as written in the route declarations), in the order Allow lists them. */
  allowedMethods(path: string): string[] {
    const declared = new Set(this.routes.filter((r) => r.path === path).map((r) => r.method.toUpperCase()));
    if (declared.has('GET')) declared.add('HEAD');
    declared.add('OPTIONS');
    return METHOD_ORDER.filter((method) => declared.has(method));
  }
}

/** What the registry wires around the routes: per-auth-kind gates (authenticate, record, rate limit) and the body limit. */
export interface RoutePipeline {
  gates: Record<Exclude<AuthKind, 'none'>, RequestHandler[]>;
  bodyLimit: string;
  /** Where the writes of the current interface keep their idempotency keys (DESIGN §12); none: keys are ignored. */
  idempotency?: IdempotencyDeps;
  /** The storage's own unit of work, on which a conditional write opens its transaction (DESIGN §14). */
  uow?: UnitOfWork<Repositories>;
}

/** A route's first step: records its template (metrics, traces), then refuses a token without its scopes. */
function enterRoute(route: RouteDefinition): RequestHandler {
  return (_req, res, next) => {
    takenByRoute(res, route.path);
    const principal = principalOf(res);
    if (principal) {
      const missing = missingScopes(principal.scopes, route.scopes);
      if (missing.length > 0) throw apiErrors.insufficientScope(missing);
    }
    next();
  };
}

/**
 * Runs a route up to its answer without sending it: principal check, body and query validation,
 * includes, the handler. Null when the handler answered itself (the media route's bytes).
 */
async function runRoute(route: RouteDefinition, req: Request, res: Response): Promise<RouteAnswer | null> {
  const principal = principalOf(res);
  if (route.auth !== 'none' && !principal)
    throw new Error(`${route.method} ${route.path} was reached without authentication`);
  const body = route.body ? await validateBody(route.body, req.body) : undefined;
  const query = route.query ? await validateQuery(route.query, req.query) : undefined;
  const includes = route.includes ? detailIncludes(req, route.includes.resource, route.includes.allowed) : [];
  let status = route.status;
  const result = await route.handle({
    principal,
    body,
    query,
    includes,
    params: req.params as Record<string, string>,
    req,
    res,
    answerWith: (other) => {
      if (other !== route.status && other !== route.response.also?.status)
        throw new Error(`${route.method} ${route.path} declares no success status ${other}`);
      status = other;
    },
  });
  if (res.headersSent) return null;
  const location = res.getHeader('Location');
  return {
    status,
    body: status === 204 ? undefined : result,
    location: typeof location === 'string' ? location : null,
  };
}

/** Sends a route's answer: JSON with the `ETag` of its bytes when the route tags its answers, 304 to a matching `If-None-Match`. */
function sendAnswer(req: Request, res: Response, answer: RouteAnswer, role: ConditionalRole): void {
  if (answer.body === undefined) {
    res.status(answer.status).end();
    return;
  }
  if (!role.tagsAnswer) {
    sendJson(res, answer.status, answer.body);
    return;
  }
  const json = JSON.stringify(answer.body);
  const tag = entityTagOf(json);
  res.setHeader(ETAG_HEADER, tag);
  const ifNoneMatch = role.answersIfNoneMatch ? conditionOf(req, IF_NONE_MATCH_HEADER) : undefined;
  if (ifNoneMatch && !noneMatchHolds(ifNoneMatch, tag)) {
    // The caller holds this very representation: no body, and no count against its limit.
    giveBackHit(res);
    res.status(304).end();
    return;
  }
  sendJsonText(res, answer.status, json);
}

function invoke(route: RouteDefinition, pipeline: RoutePipeline, role: ConditionalRole): RequestHandler {
  const { idempotency } = pipeline;
  const takesKeys = idempotency !== undefined && takesIdempotencyKeys(route);
  const { resource } = role;
  return async (req, res) => {
    const key = takesKeys ? req.get(IDEMPOTENCY_KEY_HEADER) : undefined;
    // Read before anything runs, so a malformed one is refused (400) with nothing done.
    const ifMatch = resource ? conditionOf(req, IF_MATCH_HEADER) : undefined;
    const run = async (): Promise<RouteAnswer | null> => {
      if (resource && ifMatch) await checkIfMatch(resource, ifMatch, req, res);
      return runRoute(route, req, res);
    };
    if (key !== undefined) {
      await answerIdempotently(
        idempotency!,
        req,
        res,
        key,
        async () => {
          const answer = await run();
          if (!answer) throw new Error(`${route.method} ${route.path} answered by itself under an idempotency key`);
          return answer;
        },
        role.tagsAnswer,
      );
      return;
    }
    // A write sent with If-Match and no idempotency key: its check and its change in one shared transaction.
    if (ifMatch && !pipeline.uow)
      throw new Error('conditional writes need the storage unit of work in the route pipeline');
    const answer = ifMatch ? await inSharedTransaction(pipeline.uow!, run) : await runRoute(route, req, res);
    if (answer) sendAnswer(req, res, answer, role);
  };
}

/**
 * Mounts the surfaces on the app in the order the wire conventions need: authentication of the
 * owning surface, the JSON content-type rule, a decodable path, the routes (scopes, query and
 * body checks, handler), then 405 for a known path with another method and 404 for anything else.
 */
export function mountRoutes(app: Application, registry: RouteRegistry, pipeline: RoutePipeline): void {
  // Each gate's steps (authenticate, record, rate limit) and the checks every request of the
  // interfaces passes run as one handler each rather than as router layers (in-sequence.ts).
  const gates = Object.fromEntries(
    Object.entries(pipeline.gates).map(([kind, handlers]) => [kind, inSequence(handlers)]),
  ) as Record<Exclude<AuthKind, 'none'>, RequestHandler>;

  const passGate: RequestHandler = (req, res, next) => {
    const surface = registry.surfaceFor(req.path);
    if (!surface || surface.auth === 'none') {
      next();
      return;
    }
    gates[surface.auth](req, res, next);
  };
  app.use(
    inSequence([
      passGate,
      requireJsonContentType(
        new Set(
          registry.routes
            .filter((route) => route.streamedBody)
            .map((route) => `${route.method.toUpperCase()} ${route.path}`),
        ),
      ),
      refuseUndecodablePath(),
    ]),
  );

  // One router per first path segment (/v10, /3pl, /api, /products …), mounted on the app, and
  // within it one per literal second segment (/v10/orders, /v10/customers …), found by a map
  // lookup: a request walks the few routes of its own resource instead of every route declared
  // before its own (the 161 routes under /v10 put POST /v10/order-channels/:publicId/orders at
  // layer 60). Paths under different literal segments never match one another, so the order that
  // matters (routes, then plain mounts, then 405) is kept within each group. A route whose second
  // segment is a parameter (none today) stays on its first segment's router, after the lookup.
  const segments = new Map<string, { router: express.Router; groups: Map<string, express.Router> }>();
  const newRouter = () => express.Router({ caseSensitive: true });
  const segmentOf = (path: string): { router: express.Router; rest: string } => {
    const [, first = '', second] = path.split('/');
    let segment = segments.get(first);
    if (!segment) {
      const groups = new Map<string, express.Router>();
      const router = newRouter();
      // The group routers hold their routes relative to the first segment, as this router does,
      // so the lookup hands the request over unchanged.
      router.use((req, res, next) => {
        const group = groups.get(req.path.split('/', 2)[1] ?? '');
        if (group) group(req, res, next);
        else next();
      });
      segment = { router, groups };
      segments.set(first, segment);
      app.use(`/${first}`, router);
    }
    const rest = path.slice(first.length + 1) || '/';
    if (second === undefined || second === '' || /[:*]/.test(second)) return { router: segment.router, rest };
    let group = segment.groups.get(second);
    if (!group) segment.groups.set(second, (group = newRouter()));
    return { router: group, rest };
  };

  const checkQuery = refuseUnsafeQuery();
  for (const route of registry.routes) {
    const body = route.streamedBody
      ? [route.streamedBody.receive]
      : METHODS_WITH_BODY.has(route.method)
        ? [parseJsonBody(pipeline.bodyLimit)]
        : [];
    const { router, rest } = segmentOf(route.path);
    router[route.method](
      rest,
      inSequence([
        enterRoute(route),
        checkQuery,
        ...body,
        invoke(route, pipeline, roleOf(registry.conditionalRoles, route)),
      ]),
    );
  }

  for (const { path, handlers } of registry.surfaces.flatMap((surface) => surface.mounts)) {
    const { router, rest } = segmentOf(path);
    router.use(rest, ...handlers);
  }

  for (const path of new Set(registry.routes.map((route) => route.path))) {
    const allowed = registry.allowedMethods(path);
    const { router, rest } = segmentOf(path);
    router.all(rest, (req, res) => {
      takenByRoute(res, path);
      if (req.method === 'OPTIONS') {
        res.setHeader('Allow', allowed.join(', '));
        res.status(204).end();
        return;
      }
      throw apiErrors.methodNotAllowed(req.method, req.baseUrl + req.path, allowed);
    });
  }

  app.use((req) => {
    throw apiErrors.routeNotFound(req.method, req.path);
  });
}
