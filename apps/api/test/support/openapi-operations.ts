import express from 'express';
import request from 'supertest';
import { JsonSchema } from '../../src/http/route';

/**
 * The operations of the OpenAPI document the app serves, in the shape the hostile-input suite
 * walks: every route is found through the document, so a new route is covered without a test
 * naming it.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface OperationObject {
  operationId: string;
  security: Record<string, string[]>[];
  parameters: { name: string; in: 'path' | 'query'; required?: boolean; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: { 'application/json'?: { schema: JsonSchema } } };
}

export interface OpenApiDocument {
  paths: Record<string, Partial<Record<HttpMethod, OperationObject>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
  };
}

export interface Operation {
  method: HttpMethod;
  /** The document's path, with `{name}` placeholders. */
  path: string;
  /** `POST /v10/orders/{id}/approve`, for messages. */
  label: string;
  pathParameters: string[];
  /** The JSON request body's schema with every `$ref` left in place (resolve with `resolveSchema`); null without a JSON body. */
  body: { schema: JsonSchema; required: boolean } | null;
  /** Query parameters other than those of the list vocabulary. */
  query: { name: string; required: boolean; schema: JsonSchema }[];
  /** The list vocabulary's parameters (`filter_groups`, `sort` …) by name, on list routes only. */
  list: Record<string, JsonSchema> | null;
  /** The security schemes the first alternative of the operation asks for (`bearer`, `app_key` …). */
  security: string[];
}

/** The list vocabulary: a route taking `filter_groups` is a list. */
const LIST_PARAMETERS = new Set(['filter_groups', 'sort', 'limit', 'page', 'cursor', 'starting_after', 'includes[]']);

/** Reads `GET /openapi.json` from the app. */
export async function fetchOpenApiDocument(app: express.Application): Promise<OpenApiDocument> {
  const response = await request(app).get('/openapi.json');
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  return response.body as OpenApiDocument;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const isList = parameters.some((p) => p.in === 'query' && p.name === 'filter_groups');
      const jsonBody = operation.requestBody?.content['application/json'];
      return {
        method: method as HttpMethod,
        path,
        label: `${method.toUpperCase()} ${path}`,
        pathParameters: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        // A body of another media type (a bulk operation's NDJSON file) has no JSON schema to fuzz:
        // the hostile callers send it JSON, which it refuses with a 415.
        body: jsonBody ? { schema: jsonBody.schema, required: operation.requestBody!.required } : null,
        query: parameters
          .filter((p) => p.in === 'query' && !(isList && LIST_PARAMETERS.has(p.name)))
          .map((p) => ({ name: p.name, required: p.required ?? false, schema: p.schema })),
        list: isList
          ? Object.fromEntries(
              parameters.filter((p) => p.in === 'query' && LIST_PARAMETERS.has(p.name)).map((p) => [p.name, p.schema]),
            )
          : null,
        security: Object.keys(operation.security[0] ?? {}),
      };
    }),
  );
}

/** Follows a `#/components/schemas/…` reference (sibling keywords such as `type` are kept). */
export function resolveSchema(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = document.components.schemas[name];
  if (!target) throw new Error(`the document has no schema ${name}`);
  const { $ref: _ref, ...siblings } = schema;
  return resolveSchema(document, { ...siblings, ...target });
}

/** Fills the `{name}` placeholders of a document path with already encoded segments. */
export function fillPath(path: string, segments: Record<string, string>): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const segment = segments[name];
    if (segment === undefined) throw new Error(`no value for {${name}} of ${path}`);
    return segment;
  });
}
