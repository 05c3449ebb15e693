import { Request, RequestHandler, Response } from 'express';
import { FieldType, Principal, Scope } from '@brand/core';
import { AuthKind } from './authenticate';
import { DtoClass } from './validate-dto';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON Schema object as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [keyword: string]: unknown };

/** What the OpenAPI document needs to know about a list endpoint's query vocabulary. */
export interface ListDocumentation {
  resource: string;
  fields: Readonly<Record<string, { type: FieldType }>>;
  sortKeys: readonly string[];
  filterKeys: readonly string[];
  includes: readonly string[];
  cursorOnly?: boolean;
  /** Lists of the older interface page with `page` only: no `cursor` or `starting_after` parameters. */
  pagedOnly?: boolean;
}

/** What a handler gets: the principal (null only on routes without auth), the validated body and query. */
export interface RouteContext<A extends AuthKind, B, Q> {
  principal: A extends 'none' ? null : Principal;
  body: B;
  query: Q;
  params: Record<string, string>;
  req: Request;
  res: Response;
}

/**
 * One endpoint, declared once. The same declaration registers the Express handler, tells the
 * 405 logic which methods a path has, and describes the endpoint in the OpenAPI document.
 */
export interface RouteSpec<A extends AuthKind, B, Q> {
  method: HttpMethod;
  /** Express path syntax (`/v10/orders/:id`); the OpenAPI document shows `{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Every scope listed is required; a token lacking any gets 403 naming the missing ones. */
  scopes: readonly Scope[];
  /** The body DTO (validated before the handler runs). */
  body?: B extends object ? DtoClass<B> : never;
  /** The body may be left out (every field of the DTO is optional); OpenAPI then marks it not required. */
  optionalBody?: boolean;
  /** The query DTO, for query parameters other than the list vocabulary. */
  query?: Q extends object ? DtoClass<Q> : never;
  /** Set on list endpoints: the OpenAPI document then lists the list query parameters. */
  list?: ListDocumentation;
  /** Success status (200, 201, 204). */
  status: number;
  /**
   * `also`: a second success status with the same body (an upsert answers 201 or 200); the
   * handler then answers itself (`res.status(…).json(…)`) and returns nothing.
   */
  response: { description: string; schema?: JsonSchema; also?: { status: number; description: string } };
  handler: (context: RouteContext<A, B, Q>) => Promise<unknown>;
}

/** A route with its types erased, as the registry and the OpenAPI builder see it. */
export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tag: string;
  scopes: readonly Scope[];
  auth: AuthKind;
  surface: string;
  body?: DtoClass;
  optionalBody?: boolean;
  query?: DtoClass;
  list?: ListDocumentation;
  status: number;
  response: { description: string; schema?: JsonSchema; also?: { status: number; description: string } };
  handle: (context: RouteContext<AuthKind, object | undefined, object | undefined>) => Promise<unknown>;
}

/**
 * A surface of the API (v10, sync, 3pl, legacy /api, portals, docs, health): the path prefixes it
 * owns, how requests under them authenticate, and its routes. Authentication is wired per surface,
 * so a request under a surface's prefix authenticates even before a route matches it (an unknown
 * path under /v10 answers 401 to a stranger and 404 to an integrator).
 */
export class Surface<A extends AuthKind = AuthKind> {
  readonly routes: RouteDefinition[] = [];
  /** Plain middleware under a path, for what is not a JSON endpoint (Swagger UI's page and assets). */
  readonly mounts: { path: string; handlers: RequestHandler[] }[] = [];

  constructor(
    readonly name: string,
    readonly auth: A,
    readonly prefixes: readonly string[],
  ) {}

  /** Mounts plain middleware (not documented in OpenAPI) under a path of this surface. */
  use(path: string, ...handlers: RequestHandler[]): this {
    if (!this.prefixes.some((prefix) => pathIsUnder(path, prefix)))
      throw new Error(`${path} is not under a prefix of the ${this.name} surface`);
    this.mounts.push({ path, handlers });
    return this;
  }

  /** Declares a route of this surface; its path must lie under one of the surface's prefixes. */
  route<B = undefined, Q = undefined>(spec: RouteSpec<A, B, Q>): this {
    if (!this.prefixes.some((prefix) => pathIsUnder(spec.path, prefix))) {
      throw new Error(
        `${spec.method.toUpperCase()} ${spec.path} is not under a prefix of the ${this.name} surface (${this.prefixes.join(', ')})`,
      );
    }
    const { handler, body, query, ...rest } = spec;
    this.routes.push({
      ...rest,
      ...(body ? { body: body } : {}),
      ...(query ? { query: query } : {}),
      auth: this.auth,
      surface: this.name,
      // The registry validated body and query with the DTO classes of this very spec, and the
      // authentication of this surface set the principal, so the erased values have these types.
      handle: (context) => handler(context as unknown as RouteContext<A, B, Q>),
    });
    return this;
  }
}

/** Whether `path` is `prefix` itself or below it, segment-wise (`/v10` covers `/v10/x`, not `/v100`). */
export function pathIsUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}
