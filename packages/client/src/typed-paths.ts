import type { paths } from './generated/api';

/** The HTTP methods the document uses, as openapi-typescript names them. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths of the document that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

/** The operation object of `M` on `P`. */
export type OperationOf<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;

interface AnyOperation {
  parameters: object;
  requestBody?: unknown;
  responses: object;
}

/** `params` is required when the operation has a required path or query parameter. */
type ParamsPart<O extends AnyOperation> = object extends O['parameters']
  ? { params?: O['parameters'] }
  : { params: O['parameters'] };

type JsonBodyOf<B> = B extends { content: { 'application/json': infer J } } ? J : never;

/** `body` is required when the operation declares a required JSON body, absent when it takes none. */
type BodyPart<O extends AnyOperation> = [NonNullable<O['requestBody']>] extends [never]
  ? { body?: never }
  : undefined extends O['requestBody']
    ? { body?: JsonBodyOf<NonNullable<O['requestBody']>> }
    : { body: JsonBodyOf<O['requestBody']> };

/** What every call may add to the operation's own parameters. */
export interface CallOptions {
  /**
   * The `Idempotency-Key` of a POST, PUT or PATCH. By default each call makes its own; pass one to
   * make a call you may repeat later (after a crash) count as the same request.
   */
  idempotencyKey?: string;
  /** Sent as `If-Match`: the write happens only while the resource still has this ETag (else a 412). */
  ifMatch?: string;
  /** Sent as `If-None-Match`: a GET answers 304 (`notModified: true`) while the resource still has this ETag. */
  ifNoneMatch?: string;
  /** More request headers. */
  headers?: Record<string, string>;
  /** Aborts the call, its retries and the waits between them. */
  signal?: AbortSignal;
}

/** The second argument of a call of `M` on `P`. */
export type RequestOptions<P extends keyof paths, M extends HttpMethod> = ParamsPart<OperationOf<P, M>> &
  BodyPart<OperationOf<P, M>> &
  CallOptions;

/** The second argument is optional when nothing in it is required. */
export type RequestArgs<P extends keyof paths, M extends HttpMethod> =
  object extends RequestOptions<P, M> ? [options?: RequestOptions<P, M>] : [options: RequestOptions<P, M>];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;

type ResponseBodyOf<R> = R extends { content: infer C }
  ? C extends { 'application/json': infer J }
    ? J
    : ArrayBuffer
  : undefined;

/** The body of the operation's success answers: parsed JSON, bytes for other media types, undefined without a body. */
export type SuccessData<P extends keyof paths, M extends HttpMethod> = {
  [S in keyof OperationOf<P, M>['responses'] & SuccessStatus]: ResponseBodyOf<OperationOf<P, M>['responses'][S]>;
}[keyof OperationOf<P, M>['responses'] & SuccessStatus];
