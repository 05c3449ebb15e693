import { AsyncLocalStorage } from 'node:async_hooks';
import {
  Attributes,
  Context,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  Tracer,
  defaultTextMapGetter,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { Request, RequestHandler, Response } from 'express';
import { Dialect, StorageObserver } from '@brand/persistence-kysely';
import { principalOf } from '../http/request-context';
import { UNMATCHED_ROUTE, routeTemplateOf } from '../http/route-template';
import { tracedAs } from './request-trace';
import { Tracing } from './tracing';

/** `db.system.name` of each dialect, as the semantic conventions spell it. */
const DB_SYSTEMS: Record<Dialect, string> = { sqlite: 'sqlite', postgres: 'postgresql' };

/** The first word of a statement (`select`, `insert`, `begin`): its operation, and its span's name. */
function operationOf(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
}

/**
 * Now, in epoch milliseconds with the monotonic clock's sub-millisecond precision. Every time this
 * tracing gives the SDK is one of these: left to itself, the SDK starts a span at `Date.now()`
 * (whole milliseconds) and converts a `performance.now()` by an offset it takes per span from
 * `Date.now()` again, so two spans' times could disagree by up to a millisecond, and a statement
 * could seem to start before its request.
 */
const epochNow = (): number => performance.timeOrigin + performance.now();

/**
 * Tracing on the OpenTelemetry SDK (only ever loaded through `tracingFor`, or by tests). Spans
 * carry the stable HTTP and database semantic conventions; statements carry their text with
 * placeholders, never the bound values (which hold customers' data and secrets).
 */
export class OpenTelemetryTracing implements Tracing {
  private readonly provider: NodeTracerProvider;
  private readonly tracer: Tracer;
  /** The official W3C trace-context propagator: `traceparent` and `tracestate`. */
  private readonly propagator = new W3CTraceContextPropagator();
  /**
   * The context of the request being served, carried through its async calls to the statements
   * it runs. Its own rather than the API's global context manager: nothing else here reads the
   * global one, and two tracings of one process (tests) stay apart.
   */
  private readonly active = new AsyncLocalStorage<Context>();

  /** Spans sent to an OTLP/HTTP collector at `endpoint` (its traces path, as the OTLP specification appends it). */
  static exportingOverHttp(endpoint: string, serviceName: string): OpenTelemetryTracing {
    return new OpenTelemetryTracing(serviceName, new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }));
  }

  /** Spans handed to `exporter` in batches (tests give an in-memory one). */
  constructor(serviceName: string, exporter: SpanExporter) {
    this.provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': serviceName }),
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    this.tracer = this.provider.getTracer('@brand/api');
  }

  readonly traceRequests: RequestHandler = (req, res, next) => {
    const caller = this.propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    // Named by method only until the route that takes the request is known (at the answer).
    const span = this.tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: requestAttributes(req), startTime: epochNow() },
      caller,
    );
    const { traceId, spanId } = span.spanContext();
    tracedAs(res, { traceId, spanId });
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      endRequestSpan(span, req, res);
    };
    res.once('finish', end);
    res.once('close', end);
    this.active.run(trace.setSpan(caller, span), next);
  };

  storageObserver(dialect: Dialect): StorageObserver {
    const system = DB_SYSTEMS[dialect];
    return {
      statementRan: (sql, durationMs, error) => {
        const requestContext = this.active.getStore();
        const parent = requestContext && trace.getSpan(requestContext);
        // Statements outside a request (housekeeping, deliveries, a flush of the request log
        // after its request ended) would each be a trace of their own: not worth exporting.
        if (parent === undefined || !parent.isRecording()) return;
        const endedAt = epochNow();
        const operation = operationOf(sql);
        const span = this.tracer.startSpan(
          operation,
          {
            kind: SpanKind.CLIENT,
            startTime: endedAt - durationMs,
            attributes: { 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': sql },
          },
          requestContext,
        );
        if (error !== undefined) {
          // The driver's code (SQLSTATE, SQLITE_BUSY) and not its message, which may quote a value.
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute('error.type', errorTypeOf(error));
        }
        span.end(endedAt);
      },
    };
  }

  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}

/** A failed statement's kind: the driver's error code when it has one, else the error's class. */
function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return error instanceof Error ? error.name : 'error';
}

/** What is known of a request as it arrives; never the query string, which may hold the access token. */
function requestAttributes(req: Request): Attributes {
  const attributes: Attributes = {
    'http.request.method': req.method,
    'url.path': req.path,
    'url.scheme': req.protocol,
    'network.protocol.version': req.httpVersion,
  };
  const userAgent = req.headers['user-agent'];
  if (userAgent !== undefined) attributes['user_agent.original'] = userAgent;
  return attributes;
}

/** Names the span by its route's template, records the answer, and ends it. */
function endRequestSpan(span: Span, req: Request, res: Response): void {
  const route = routeTemplateOf(req, res);
  span.updateName(`${req.method} ${route}`);
  if (route !== UNMATCHED_ROUTE) span.setAttribute('http.route', route);
  span.setAttribute('http.response.status_code', res.statusCode);
  const principal = principalOf(res);
  if (principal) span.setAttribute('brand.id', principal.brandId);
  if (!res.writableFinished) {
    // The client went away before the answer was sent.
    span.setAttribute('error.type', 'aborted');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'the connection closed before the answer was sent' });
  } else if (res.statusCode >= 500) {
    // A server span fails on 5xx only: a 4xx is the caller's mistake, answered as it should be.
    span.setAttribute('error.type', String(res.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end(epochNow());
}
