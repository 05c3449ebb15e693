import { RequestHandler } from 'express';
import { Dialect, StorageObserver } from '@brand/persistence-kysely';

/** Tracing's settings (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`). */
export interface TracingConfig {
  /** The OTLP/HTTP collector's base URL (spans go to `<endpoint>/v1/traces`); null: no tracing. */
  endpoint: string | null;
  /** `service.name` of every span. */
  serviceName: string;
}

/**
 * Tracing of a process (DESIGN §17): a span per request and per SQL statement, exported over
 * OTLP. The server tells the storage (`storageObserver`) and the app (`traceRequests`).
 */
export interface Tracing {
  /** The first middleware: the request's span, continuing the caller's `traceparent`, ended with the answer. */
  readonly traceRequests: RequestHandler;
  /** What the storage is opened with: a child span of the request's for every statement it runs. */
  storageObserver(dialect: Dialect): StorageObserver;
  /** Exports the spans ended so far. */
  flush(): Promise<void>;
  /** Exports what is left and stops. */
  shutdown(): Promise<void>;
}
