import { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import express from 'express';
import { openApiDocumentOf } from '../../src/app';

/*
 * Every response a test receives from an app built by the test support is checked against the
 * OpenAPI document that same app serves at /openapi.json: the status must be documented for the
 * operation, a JSON body must match that status's schema, and no object may carry a property the
 * document does not declare. A presenter and the document can therefore not drift: the first test
 * that receives the drifted response fails, naming the operation and the property.
 *
 * The check runs when a response finishes; the test's `afterEach` (response-conformance-setup.ts)
 * waits for the pending checks and fails the test that received a response off the document.
 */

type JsonObject = Record<string, unknown>;
type Handle = (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;

interface OperationObject {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface CompiledOperation {
  method: string;
  path: string;
  pattern: RegExp;
  wildcardPattern: RegExp;
  literalSegments: number;
  operation: OperationObject;
  /** JSON pointer of the operation inside the document, for the validators. */
  pointer: string;
}

interface CompiledDocument {
  /** Reusable responses (`components.responses`), which operations name by `$ref`. */
  responses: Record<string, OperationObject['responses'][string]>;
  operations: CompiledOperation[];
  validators: Map<string, ValidateFunction>;
  ajv: Ajv2020;
  errorEnvelope: ValidateFunction;
}

/** Each component schema becomes a schema of its own under this base, compiled once and shared by every response that uses it. */
const SCHEMA_BASE = 'https://brand.test/schemas/';
const violations: string[] = [];
const pending = new Set<Promise<void>>();
/**
 * Compiled documents by their text, kept per worker process rather than per test file: jest gives
 * every file a fresh module registry, and compiling the same validators again in each of ~65 API
 * files cost a fifth of the suite. A core module is the one object every file of a worker shares
 * (jest hands out Node's own), so the cache hangs on it; the validators are plain functions and
 * check JSON from any file alike.
 */
const compiledByText: Map<string, CompiledDocument> = ((holder: Record<symbol, unknown>) => {
  const key = Symbol.for('brand.test.responseConformance.compiledByText');
  return (holder[key] ??= new Map<string, CompiledDocument>()) as Map<string, CompiledDocument>;
})(os);

/** Makes `app` check every response it sends from now on (the test support's `buildApp` calls it). */
export function checkResponsesAgainstDocument(app: express.Application): void {
  // Express calls `app.handle` for every request, whether the app is served by a server or by supertest.
  const handled = app as unknown as { handle: Handle };
  const handle = handled.handle.bind(app);
  // The very document /openapi.json serves, taken directly: in maintenance the route answers 503.
  let document: CompiledDocument | undefined;
  const loadDocument = async (): Promise<CompiledDocument> =>
    (document ??= compiled(JSON.stringify(openApiDocumentOf(app))));
  handled.handle = (req, res, next) => {
    watch(req, res, loadDocument);
    handle(req, res, next);
  };
}

/** Waits for the checks of responses already sent, then returns and forgets what they found. */
export async function takeResponseViolations(): Promise<string[]> {
  while (pending.size > 0) await Promise.all([...pending]);
  return violations.splice(0);
}

function compiled(text: string): CompiledDocument {
  let document = compiledByText.get(text);
  if (!document) {
    document = compile(JSON.parse(text) as JsonObject);
    compiledByText.set(text, document);
  }
  return document;
}

function compile(document: JsonObject): CompiledDocument {
  const closedDocument = pointRefsAtSchemas(closeObjects(document)) as JsonObject;
  // The document's own validity is the OpenAPI test's business; checking it here again cost a compile per file.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
  addFormats(ajv);
  const componentSchemas =
    ((closedDocument['components'] ?? {}) as { schemas?: Record<string, JsonObject> }).schemas ?? {};
  for (const [name, schema] of Object.entries(componentSchemas))
    ajv.addSchema({ ...schema, $id: `${SCHEMA_BASE}${name}` });
  const operations: CompiledOperation[] = [];
  const paths = (closedDocument['paths'] ?? {}) as Record<string, Record<string, OperationObject>>;
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const segments = path.split('/');
      const literal = segments.map((segment) => (segment.startsWith('{') ? null : escapeRegExp(segment)));
      operations.push({
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${literal.map((part) => part ?? '[^/]+').join('/')}$`),
        wildcardPattern: new RegExp(`^${literal.map((part) => part ?? '.+').join('/')}$`),
        literalSegments: literal.filter((part) => part !== null).length,
        operation,
        pointer: `/paths/${pointerSegment(path)}/${method}`,
      });
    }
  }
  // A literal segment wins over a parameter (`/v10/orders/export` is not the order with id `export`).
  operations.sort((a, b) => b.literalSegments - a.literalSegments);
  const errorEnvelope = ajv.getSchema(`${SCHEMA_BASE}ErrorEnvelope`);
  if (!errorEnvelope) throw new Error('the document has no ErrorEnvelope schema');
  const components = (closedDocument['components'] ?? {}) as { responses?: CompiledDocument['responses'] };
  return { responses: components.responses ?? {}, operations, validators: new Map(), ajv, errorEnvelope };
}

/**
 * A copy of the document whose object schemas refuse undeclared properties. The served document
 * leaves objects open (clients must tolerate new fields), but what this API sends today must be
 * declared; `unevaluatedProperties` also sees properties declared through `oneOf` and `$ref`.
 */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== 'object') return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    // Property names and examples are data, not schemas.
    copy[key] = key === 'properties' ? mapValues(value as JsonObject, closeObjects) : closeObjects(value);
  }
  const declaresProperties = typeof copy['properties'] === 'object';
  const isOpen = 'additionalProperties' in copy || 'patternProperties' in copy || 'unevaluatedProperties' in copy;
  if (declaresProperties && !isOpen) copy['unevaluatedProperties'] = false;
  return copy;
}

/** `#/components/schemas/X` becomes the id the component schema was added under. */
function pointRefsAtSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(pointRefsAtSchemas);
  if (node === null || typeof node !== 'object') return node;
  const copy = mapValues(node as JsonObject, pointRefsAtSchemas);
  const ref = copy['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
    copy['$ref'] = `${SCHEMA_BASE}${ref.slice('#/components/schemas/'.length)}`;
  return copy;
}

function mapValues(object: JsonObject, map: (value: unknown) => unknown): JsonObject {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
}

function watch(req: IncomingMessage, res: ServerResponse, loadDocument: () => Promise<CompiledDocument>): void {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const chunks: Buffer[] = [];
  captureBody(res, chunks);
  res.once('finish', () => {
    if (method === 'HEAD' || method === 'OPTIONS') return;
    const check = loadDocument()
      .then((document) => {
        const problem = conformance(document, method, url, res, Buffer.concat(chunks));
        if (problem) violations.push(`${method} ${url} answered ${res.statusCode}: ${problem}`);
      })
      .catch((error: unknown) => {
        violations.push(`${method} ${url}: the response could not be checked: ${String(error)}`);
      })
      .finally(() => pending.delete(check));
    pending.add(check);
  });
}

function captureBody(res: ServerResponse, chunks: Buffer[]): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const keep = (chunk: unknown, encoding: unknown): void => {
    if (typeof chunk === 'string')
      chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  (res as unknown as { write: typeof write }).write = (...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  };
  (res as unknown as { end: typeof end }).end = (...args: unknown[]) => {
    if (typeof args[0] !== 'function') keep(args[0], args[1]);
    return end(...args);
  };
}

/** What is wrong with this response, or null when the document describes it. */
function conformance(
  document: CompiledDocument,
  method: string,
  url: string,
  res: ServerResponse,
  body: Buffer,
): string | null {
  // Express routes without strict routing: `/v10/customers/` is the operation `/v10/customers`.
  const rawPath = url.split('?')[0]!;
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const status = res.statusCode;
  const contentType = String(res.getHeader('content-type') ?? '')
    .split(';')[0]!
    .trim();
  const isJson = contentType === 'application/json';
  const json = isJson && body.length > 0 ? parseJson(body) : undefined;
  const candidates = document.operations.filter((op) => op.pattern.test(path) || op.wildcardPattern.test(path));
  const operation =
    candidates.find((op) => op.method === method && op.pattern.test(path)) ??
    candidates.find((op) => op.method === method);

  // The OAuth endpoints are defined by RFC 6749, 7009 and 8414 and described by their metadata
  // document, not by this one (docs/decisions/oauth.md, "OpenAPI"); oauth-token.test.ts checks their answers.
  if (!operation && (path.startsWith('/oauth/') || path === '/.well-known/oauth-authorization-server')) return null;
  // The console is HTML pages for people, not part of the API document (docs/decisions/oauth.md);
  // console-tokens.test.ts checks their answers.
  if (!operation && (path === '/console' || path.startsWith('/console/'))) return null;
  if (!operation) {
    // No operation: an unknown route (404), another method of a known path (405), or a refusal
    // before routing (401, 400 for an undecodable path, 503 in maintenance). All are errors in the envelope.
    if (status === 304) return null;
    if (!isJson)
      return path.startsWith('/docs') ? null : `no operation is documented, and the body is ${contentType || 'empty'}`;
    if (status < 400) return 'no operation is documented for this method and path';
    return envelopeProblem(document, json);
  }

  const listedResponse = operation.operation.responses[String(status)] ?? operation.operation.responses['default'];
  const responseRef = (listedResponse as { $ref?: string } | undefined)?.$ref;
  const documented = responseRef ? document.responses[responseRef.split('/').pop()!] : listedResponse;
  if (!documented) {
    const listed = Object.keys(operation.operation.responses).join(', ');
    return `status ${status} is not documented for ${method} ${operation.path} (documented: ${listed})`;
  }
  const content = documented.content;
  if (!content) {
    return body.length === 0 ? null : `the document declares no body for ${status}, but ${body.length} bytes were sent`;
  }
  if (!content[contentType]) {
    return `the body is ${contentType || 'empty'}, the document declares ${Object.keys(content).join(', ')}`;
  }
  if (!isJson) return null;
  if (json === undefined) return 'the body is not JSON';
  // A reusable response (every 404 …) is compiled once, not once per operation naming it.
  const key = `${responseRef ?? `${operation.pointer}/responses/${status}`}/${contentType}`;
  let validate = document.validators.get(key);
  if (!validate) {
    const schema = content[contentType].schema;
    if (!schema) return `the document declares ${contentType} for ${status} without a schema`;
    validate = document.ajv.compile(schema as JsonObject);
    document.validators.set(key, validate);
  }
  if (validate(json)) return null;
  return describeErrors(validate);
}

function envelopeProblem(document: CompiledDocument, json: unknown): string | null {
  if (document.errorEnvelope(json)) return null;
  return `not the error envelope: ${describeErrors(document.errorEnvelope)}`;
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((error) => {
      const where = error.instancePath || '(body)';
      const unexpected = (error.params as { unevaluatedProperty?: string }).unevaluatedProperty;
      return unexpected !== undefined
        ? `${where} has the undocumented property "${unexpected}"`
        : `${where} ${error.message ?? 'is invalid'} (${error.schemaPath})`;
    })
    .join('; ');
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function pointerSegment(text: string): string {
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
