import { Request, RequestHandler, Response } from 'express';
import { Static, TSchema } from '@sinclair/typebox';
import { FieldType, Principal, Scope } from '@brand/core';
import { AuthKind } from './authenticate';
import { DtoClass } from './validate-dto';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON Schema object as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [keyword: string]: unknown };

/** A declared response body (TypeBox, typing the handler's result), or none. */
export type ResponseSchema = TSchema | undefined;

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
  /** How the list shows its ids when not as bare numbers (`evt_`): `starting_after` takes them so. */
  idPrefix?: string;
}

/** The includes a single object accepts, and the resource an error names. */
export interface DetailIncludes {
  resource: string;
  allowed: readonly string[];
}

/** A request body the route reads itself, streamed (see `RouteSpec.streamedBody`). */
export interface StreamedBody {
  mediaType: string;
  description: string;
  receive: RequestHandler;
}

/** What a handler gets: the principal (null only on routes without auth), the validated body and query. */
export interface RouteContext<A extends AuthKind, B, Q> {
  principal: A extends 'none' ? null : Principal;
  body: B;
  query: Q;
  /** The checked `includes[]` of a route that declares `includes`; [] otherwise. */
  includes: string[];
  params: Record<string, string>;
  req: Request;
  res: Response;
  /**
   * Answers with the route's other declared success status (`response.also`) instead of
   * `status`: an upsert answers 201 when it created and 200 when it updated.
   */
  answerWith: (status: number) => void;
}

/**
 * What a route answers on success: the body's declaration (a TypeBox schema, see
 * `http/wire-schema.ts`) both documents the response and types the handler's result.
 */
export interface ResponseSpec<R extends ResponseSchema> {
  description: string;
  /** The JSON body; none for 204 and for a handler that answers bytes itself. */
  schema?: R;
  /** A second success status: with the same body unless `bodyless` (a 304 to a conditional GET). */
  also?: { status: number; description: string; bodyless?: boolean };
  /** Media types of a non-JSON body the handler writes itself (an image's bytes). */
  binary?: readonly string[];
  /** The success answer carries a Location header (a create: the new resource's URL), described thus. */
  location?: string;
  /**
   * Set when the answer has the shape of a resource's GET but shows less of it (a create that
   * answers without the new document's timeline): it then carries no ETag, since its hash would
   * not be the tag GET gives (DESIGN §14). Says what is left out.
   */
  showsLessThanGet?: string;
}

/**
 * One endpoint, declared once. The same declaration registers the Express handler, tells the
 * 405 logic which methods a path has, and describes the endpoint in the OpenAPI document.
 */
export interface RouteSpec<A extends AuthKind, B, Q, R extends ResponseSchema> {
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
  /**
   * A body that is not JSON, read from the socket by `receive` instead of the JSON parser (a bulk
   * operation's NDJSON file). `receive` leaves on `req.body` what the idempotency fingerprint
   * covers in place of the bytes.
   */
  streamedBody?: StreamedBody;
  /**
   * Scopes decided per request rather than listed in `scopes` (a bulk operation's depend on its
   * type): how the document states them. The route then answers 403 as one with scopes does.
   */
  scopesByRequest?: string;
  /** The query DTO, for query parameters other than the list vocabulary. */
  query?: Q extends object ? DtoClass<Q> : never;
  /** Set on list endpoints: the OpenAPI document then lists the list query parameters. */
  list?: ListDocumentation;
  /**
   * Related objects a single object may embed (`GET /v10/orders/{id}?includes[]=lines`): checked
   * like a list's includes (an unknown name is a 422 naming the parameter), handed to the handler
   * as `includes`, and listed in the OpenAPI document.
   */
  includes?: DetailIncludes;
  /**
   * The GET of a resource without an id, one per brand (`/v10/settings`): tagged and conditional
   * like the GET of a resource by id (DESIGN §14), which is recognised by its path alone.
   */
  singleton?: boolean;
  /** Success status (200, 201, 204). */
  status: number;
  response: ResponseSpec<R>;
  /** Returns the declared body (nothing for 204 or when it wrote the answer itself, as the media route does). */
  handler: (context: RouteContext<A, B, Q>) => Promise<R extends TSchema ? Static<R> : void>;
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
  streamedBody?: StreamedBody;
  scopesByRequest?: string;
  query?: DtoClass;
  list?: ListDocumentation;
  includes?: DetailIncludes;
  singleton?: boolean;
  status: number;
  response: ResponseSpec<ResponseSchema>;
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
  route<B = undefined, Q = undefined, R extends ResponseSchema = undefined>(spec: RouteSpec<A, B, Q, R>): this {
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

/** What a path below `prefix` starts with: the prefix ending in a slash. */
export function belowPrefix(prefix: string): string {
  return prefix.endsWith('/') ? prefix : `${prefix}/`;
}

/** Whether `path` is `prefix` itself or below it, segment-wise (`/v10` covers `/v10/x`, not `/v100`). */
export function pathIsUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(belowPrefix(prefix));
}
