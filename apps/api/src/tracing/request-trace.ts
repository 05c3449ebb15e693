import { Response } from 'express';

/** The trace a request is answered in: what the log line and the request log record of it. */
export interface RequestTrace {
  /** 32 hex digits, the same in every span of the trace (the caller's, when it sent a `traceparent`). */
  traceId: string;
  /** The request's own span. */
  spanId: string;
}

// Kept on res.locals, which lives exactly as long as the request.
const TRACE_KEY = 'trace';

/** Records the trace of the request (the tracing middleware, as the request's span starts). */
export function tracedAs(res: Response, trace: RequestTrace): void {
  res.locals[TRACE_KEY] = trace;
}

/** The request's trace; undefined while tracing is off (and for requests the tracing did not see). */
export function traceOf(res: Response): RequestTrace | undefined {
  return res.locals[TRACE_KEY] as RequestTrace | undefined;
}
