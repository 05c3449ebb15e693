import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas, targetConstructorToSchema } from 'class-validator-jsonschema';
import { HAS_DECIMALS, NOT_TOGETHER_WITH } from '../dtos/decorators';
import { RouteDefinition, JsonSchema } from '../http/route';
import { RouteRegistry } from '../http/route-registry';
import { classTransformerMetadata } from './class-transformer-metadata';
import { includesParameter, listParameters } from './list-parameters';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, takesIdempotencyKeys } from '../http/idempotency';
import { ErrorEnvelopeSchema } from '../http/api-error';
import { componentsUsedBy } from '../http/wire-schema';
import {
  ConditionalRole,
  ETAG_HEADER,
  IF_MATCH_HEADER,
  IF_NONE_MATCH_HEADER,
  roleOf,
} from '../http/conditional-requests';

const SCHEMA_PREFIX = '#/components/schemas/';

/** Reusable error responses; every one answers with the error envelope. */
const ERROR_RESPONSES: Readonly<Record<string, { status: number; description: string; retryAfter?: boolean }>> = {
  BadRequest: {
    status: 400,
    description:
      'Unparseable JSON (invalid_json), a malformed If-Match or If-None-Match (invalid_header), a body nested deeper than 32 levels (body_too_deep), a path that is not percent-encoded UTF-8 (invalid_path), a token sent twice or in a malformed access_token parameter (invalid_request), or a missing X-ServiceAppIdentifier on /api',
  },
  Unauthorized: {
    status: 401,
    description: 'Missing, unknown, expired or revoked token, or an app key of another app',
  },
  Forbidden: { status: 403, description: 'The token lacks a scope; meta.missing_scopes lists them' },
  NotFound: { status: 404, description: 'Unknown route, or an id that does not exist for this brand' },
  PayloadTooLarge: { status: 413, description: 'The body is larger than the limit' },
  UnsupportedMediaType: { status: 415, description: 'The body is not sent as application/json' },
  Conflict: {
    status: 409,
    description:
      'A concurrent change won (concurrency_conflict): nothing of this request was kept; send it again. Or the first request with this Idempotency-Key is still running (idempotency_key_in_use): nothing ran; retry after Retry-After to get its answer. Or what the request would change has already ended (already_finished: a finished bulk operation cancelled)',
    retryAfter: true,
  },
  PreconditionFailed: {
    status: 412,
    description:
      'If-Match named a tag that is not the current one (precondition_failed, source.header If-Match): the resource changed since it was read. Nothing was changed; the ETag header gives the current tag',
  },
  ValidationError: {
    status: 422,
    description:
      'One error object per invalid field, each with source.pointer or source.parameter; or a business rule refuses the change (invalid_state_transition, duplicate, has_dependents, image_download_failed); or the Idempotency-Key was first used with another method, path or body (idempotency_key_reused)',
  },
  TooManyRequests: {
    status: 429,
    description: 'Rate limit of the token reached; see Retry-After and RateLimit',
    retryAfter: true,
  },
  InternalError: { status: 500, description: 'Unexpected failure; retry later' },
  ServiceUnavailable: {
    status: 503,
    description:
      'Maintenance (maintenance), or the database cannot serve right now: restarting, unreachable, full, read-only or locked beyond its timeout (storage_unavailable). Nothing of a refused write was kept; retry after Retry-After',
    retryAfter: true,
  },
};

const SECURITY_SCHEMES: Readonly<Record<string, JsonSchema>> = {
  bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <access token>' },
  access_token: {
    type: 'apiKey',
    in: 'query',
    name: 'access_token',
    description: 'The access token as a query parameter, instead of the header',
  },
  app_key: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-App-Key',
    description: 'The key of the API app the token was issued for (current interface)',
  },
  app_identifier: {
    type: 'apiKey',
    in: 'header',
    name: 'X-ServiceAppIdentifier',
    description: 'Names the app, its version and a contact (older /api interface)',
  },
};

/** Built-in classes the library may reflect from a property's TypeScript type; they are no schema of ours. */
const REFLECTED_BUILTINS = ['Object', 'Map', 'Array', 'String', 'Number', 'Boolean'].map(
  (name) => `${SCHEMA_PREFIX}${name}`,
);

/**
 * A property validated by a custom decorator (a record of prices, attributes …) is described by
 * its @JSONSchema, but the library still adds a `$ref` to the reflected TypeScript type (`Object`),
 * which no component defines. Those refs are dropped so every `$ref` of the document resolves.
 */
function dropReflectedBuiltinRefs(schemas: Record<string, object>): void {
  for (const schema of Object.values(schemas)) {
    const properties = ((schema as JsonSchema)['properties'] ?? {}) as Record<string, JsonSchema>;
    for (const property of Object.values(properties)) {
      if (typeof property['$ref'] === 'string' && REFLECTED_BUILTINS.includes(property['$ref']))
        delete property['$ref'];
    }
  }
}

function operationId(route: RouteDefinition): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** OpenAPI 3.1 lets non-OAuth schemes list role names, so the scopes a route needs are stated with the token scheme. */
function security(route: RouteDefinition): JsonSchema[] {
  const scopes = [...route.scopes];
  switch (route.auth) {
    case 'current':
      return [
        { bearer: scopes, app_key: [] },
        { access_token: scopes, app_key: [] },
      ];
    case 'legacy':
      return [
        { bearer: scopes, app_identifier: [] },
        { access_token: scopes, app_identifier: [] },
      ];
    case 'none':
      return [];
  }
}

function pathParameters(path: string): JsonSchema[] {
  return [...path.matchAll(/[:*]([A-Za-z0-9_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

function queryParameters(route: RouteDefinition): JsonSchema[] {
  if (!route.query) return [];
  const schema = targetConstructorToSchema(route.query, {
    classTransformerMetadataStorage: classTransformerMetadata,
    refPointerPrefix: SCHEMA_PREFIX,
  });
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

function errorResponses(route: RouteDefinition, role: ConditionalRole): Record<string, JsonSchema> {
  const names = ['NotFound', 'InternalError', 'ServiceUnavailable'];
  if (route.auth !== 'none') names.push('Unauthorized', 'TooManyRequests');
  if (route.auth !== 'none' || route.body || /[:*]/.test(route.path)) names.push('BadRequest');
  if (route.scopes.length > 0 || route.scopesByRequest) names.push('Forbidden');
  if (route.body || route.streamedBody) names.push('PayloadTooLarge', 'UnsupportedMediaType');
  const writes = route.method !== 'get';
  if (writes && route.auth !== 'none') names.push('Conflict');
  if (role.resource) names.push('PreconditionFailed');
  if (writes || route.body || route.query || route.list || route.includes) names.push('ValidationError');
  const sorted = names.map((name) => [name, ERROR_RESPONSES[name]!] as const).sort((a, b) => a[1].status - b[1].status);
  return Object.fromEntries(
    sorted.map(([name, { status }]) => [String(status), { $ref: `#/components/responses/${name}` }]),
  );
}

/** The body of a success answer: the declared JSON shape, or the media types of bytes. */
function successContent(route: RouteDefinition): { content?: JsonSchema } {
  if (route.status === 204) return {};
  if (route.response.binary) {
    const bytes = { type: 'string', contentMediaType: 'application/octet-stream' };
    return { content: Object.fromEntries(route.response.binary.map((type) => [type, { schema: bytes }])) };
  }
  if (!route.response.schema) return {};
  return { content: { 'application/json': { schema: route.response.schema } } };
}

/** The headers of a success answer: Location where the route declares one, Idempotent-Replayed on writes taking keys, ETag on tagged answers. */
function successHeaders(
  route: RouteDefinition,
  role: ConditionalRole,
  options: { location: boolean },
): { headers?: JsonSchema } {
  const headers: JsonSchema = {};
  if (role.tagsAnswer) headers[ETAG_HEADER] = { $ref: '#/components/headers/ETag' };
  if (route.response.location && options.location)
    headers['Location'] = { description: route.response.location, schema: { type: 'string', format: 'uri-reference' } };
  if (takesIdempotencyKeys(route))
    headers[IDEMPOTENT_REPLAYED_HEADER] = { $ref: '#/components/headers/IdempotentReplayed' };
  return Object.keys(headers).length > 0 ? { headers } : {};
}

function operation(route: RouteDefinition, role: ConditionalRole): JsonSchema {
  const scopesNote =
    route.scopes.length > 0
      ? `\n\nRequired scopes: ${route.scopes.join(', ')}.`
      : route.scopesByRequest
        ? `\n\n${route.scopesByRequest}`
        : '';
  return {
    operationId: operationId(route),
    summary: route.summary,
    ...(route.description || scopesNote ? { description: `${route.description ?? ''}${scopesNote}`.trim() } : {}),
    tags: [route.tag],
    security: security(route),
    ...(route.scopes.length > 0 ? { 'x-required-scopes': [...route.scopes] } : {}),
    parameters: [
      ...pathParameters(route.path),
      ...(route.list ? listParameters(route.list) : []),
      ...(route.includes ? [includesParameter(route.includes.allowed)] : []),
      ...queryParameters(route),
      ...(takesIdempotencyKeys(route) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
      ...(role.answersIfNoneMatch ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : []),
      ...(role.resource ? [{ $ref: '#/components/parameters/IfMatch' }] : []),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: !route.optionalBody,
            content: { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}${route.body.name}` } } },
          },
        }
      : {}),
    ...(route.streamedBody
      ? {
          requestBody: {
            required: true,
            description: route.streamedBody.description,
            content: { [route.streamedBody.mediaType]: { schema: { type: 'string' } } },
          },
        }
      : {}),
    responses: {
      [String(route.status)]: {
        description: route.response.showsLessThanGet
          ? `${route.response.description}. It shows less than GET (${route.response.showsLessThanGet}), so it carries no ETag`
          : route.response.description,
        ...successHeaders(route, role, { location: true }),
        ...successContent(route),
      },
      ...(route.response.also
        ? {
            [String(route.response.also.status)]: {
              description: route.response.also.description,
              ...successHeaders(route, role, { location: false }),
              ...(route.response.also.bodyless ? {} : successContent(route)),
            },
          }
        : {}),
      ...(role.answersIfNoneMatch
        ? {
            '304': {
              description: 'Not modified: If-None-Match named the current tag. No body; costs no rate limit',
              headers: { [ETAG_HEADER]: { $ref: '#/components/headers/ETag' } },
            },
          }
        : {}),
      ...errorResponses(route, role),
    },
  };
}

/** The named response shapes the routes and the error responses use; a name shared with a request DTO is a mistake. */
function responseComponents(registry: RouteRegistry, dtoSchemas: Record<string, unknown>): Record<string, unknown> {
  const roots = [...registry.routes.map((route) => route.response.schema), ErrorEnvelopeSchema];
  const components = componentsUsedBy(roots);
  for (const name of Object.keys(components))
    if (name in dtoSchemas) throw new Error(`${name} names both a request DTO and a response shape`);
  return components;
}

/** How many validation decorators the loaded classes carry: grows only when a decorated class is loaded. */
function validationMetadataCount(): number {
  // The map class-validator-jsonschema itself reads; class-validator's typings keep it private.
  const { validationMetadatas } = getMetadataStorage() as unknown as {
    validationMetadatas?: Map<unknown, readonly unknown[]>;
  };
  // Should a release of class-validator keep it elsewhere: no count, so the schemas are made every time.
  if (!(validationMetadatas instanceof Map)) return Number.NaN;
  let count = 0;
  for (const metadatas of validationMetadatas.values()) count += metadatas.length;
  return count;
}

let madeDtoSchemas: { metadataCount: number; schemas: Record<string, JsonSchema> } | undefined;

/**
 * The schemas of every request DTO class, made once per set of loaded classes. Reading every
 * class's decorators is most of what building the document costs, and every app one process makes
 * (a service embedding the API may make several, the tests one or more per file) reads the same classes.
 * Made again when a decorated class was loaded since; each document gets its own copy, so no
 * caller can change another's.
 */
function requestDtoSchemas(): Record<string, JsonSchema> {
  const metadataCount = validationMetadataCount();
  if (madeDtoSchemas?.metadataCount !== metadataCount) {
    const schemas = validationMetadatasToSchemas({
      classTransformerMetadataStorage: classTransformerMetadata,
      refPointerPrefix: SCHEMA_PREFIX,
      // Without this the library would describe the property by its reflected TypeScript type (Object).
      additionalConverters: { [NOT_TOGETHER_WITH]: {}, [HAS_DECIMALS]: {} },
    });
    dropReflectedBuiltinRefs(schemas);
    madeDtoSchemas = { metadataCount, schemas: schemas as Record<string, JsonSchema> };
  }
  return structuredClone(madeDtoSchemas.schemas);
}

/**
 * The OpenAPI 3.1 document of every registered route: request bodies from the same DTO classes
 * that validate them (class-validator-jsonschema), responses from the hand-declared schemas.
 */
export function buildOpenApiDocument(registry: RouteRegistry, info: { title: string; version: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of registry.routes) {
    // `:id` and Express 5's wildcard `*key` (the rest of the path, e.g. a media key) are both one path parameter.
    const path = route.path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
    (paths[path] ??= {})[route.method] = operation(route, roleOf(registry.conditionalRoles, route));
  }
  const dtoSchemas = requestDtoSchemas();
  const tags = [...new Set(registry.routes.map((route) => route.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        'The Brand commerce platform API. Errors use the envelope {"errors":[{status, code, title, detail, source}]}; ' +
        'every response carries X-Request-Id. Lists take filter_groups, sort, includes, limit, page, cursor and starting_after in PHP bracket notation.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags,
    paths,
    components: {
      schemas: { ...dtoSchemas, ...responseComponents(registry, dtoSchemas) },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, { description, retryAfter }]) => [
          name,
          {
            description,
            ...(retryAfter
              ? {
                  headers: {
                    'Retry-After': {
                      description: 'Seconds to wait before retrying',
                      schema: { type: 'integer', minimum: 0 },
                    },
                  },
                }
              : {}),
            content: { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}ErrorEnvelope` } } },
          },
        ]),
      ),
      parameters: {
        IdempotencyKey: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description:
            'Makes the write safe to retry (DESIGN §12): 1 to 255 visible ASCII characters, bare or as a quoted string, unique per request of your app. ' +
            'The first request with a key runs and its answer is kept for 24 hours; a retry with the same key, method, path and body answers that status and body again ' +
            '(with Idempotent-Replayed: true) and runs nothing. The same key with another request is a 422 idempotency_key_reused; while the first still runs, a 409 idempotency_key_in_use. ' +
            'Refusals (4xx) are kept as answers; a 5xx is not, so a retry runs the request. Keys belong to the brand and app of the token.',
          schema: { type: 'string', minLength: 1, maxLength: 257 },
        },
        IfNoneMatch: {
          name: IF_NONE_MATCH_HEADER,
          in: 'header',
          required: false,
          description:
            'A tag (or a comma-separated list, or *) from an earlier ETag: when the resource still has it, the answer is 304 without a body, and it does not count against the rate limit (DESIGN §14). Compared weakly (W/ is ignored).',
          schema: { type: 'string' },
        },
        IfMatch: {
          name: IF_MATCH_HEADER,
          in: 'header',
          required: false,
          description:
            'The ETag the resource had when you read it (or a list, or * for "it exists"): the change is made only if the resource still has it, else 412 precondition_failed and nothing changes (DESIGN §14). The check and the change are one step: of two writes sent with one tag, exactly one succeeds. Compared strongly (a W/ tag never matches). For an action on a resource (approve, cancel, book …) it is the tag of that resource.',
          schema: { type: 'string' },
        },
      },
      headers: {
        ETag: {
          description:
            'Strong entity tag of the resource as GET shows it (without includes); changes whenever anything GET shows changes. Send it in If-Match to change the resource only as you read it, or in If-None-Match to read it only when it changed',
          schema: { type: 'string' },
        },
        IdempotentReplayed: {
          description:
            'Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
