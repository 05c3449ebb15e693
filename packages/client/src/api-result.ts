/** What every answer tells besides its body. */
interface ResultMeta {
  /** The HTTP status. */
  status: number;
  /** The `ETag` of the resource, when the answer carries one: pass it back as `ifMatch` or `ifNoneMatch`. */
  etag: string | null;
  /** The `X-Request-Id` the API gave the request; quote it to support. */
  requestId: string | null;
  /** All response headers. */
  headers: Headers;
}

/** A 2xx answer. */
export interface FreshResult<T> extends ResultMeta {
  notModified: false;
  data: T;
}

/** A 304: the resource still has the ETag sent as `ifNoneMatch`; the copy the caller holds is current. */
export interface NotModifiedResult extends ResultMeta {
  notModified: true;
  data: undefined;
}

/** The answer of a call: a 2xx, or a 304 for a conditional GET. */
export type ApiResult<T> = FreshResult<T> | NotModifiedResult;
