import type { ApiResult, FreshResult } from './api-result';
import type { ClientOptions } from './client-options';
import { ListArgs, ListItem, ListPage, ListPath, itemsOf, walkPages } from './paginate';
import { OutgoingCall, Transport } from './transport';
import type { HttpMethod, PathsWith, RequestArgs, RequestOptions, SuccessData } from './typed-paths';

/**
 * A typed call of one method: the path picks the operation, which types the parameters, the body
 * and the data. A call given `ifNoneMatch` may answer 304, so its result is an `ApiResult`
 * (narrow on `notModified`); any other call's is the fresh answer.
 */
export interface MethodCall<M extends HttpMethod> {
  <P extends PathsWith<M>>(
    path: P,
    options: RequestOptions<P, M> & { ifNoneMatch: string },
  ): Promise<ApiResult<SuccessData<P, M>>>;
  <P extends PathsWith<M>>(path: P, ...options: RequestArgs<P, M>): Promise<FreshResult<SuccessData<P, M>>>;
}

/** The client `createClient` makes. Non-2xx answers are thrown as `BrandApiError`. */
export interface BrandClient {
  GET: MethodCall<'get'>;
  POST: MethodCall<'post'>;
  PUT: MethodCall<'put'>;
  PATCH: MethodCall<'patch'>;
  DELETE: MethodCall<'delete'>;
  /**
   * Every item of a cursor list, following `next_cursor` page after page until `has_more` is false.
   *
   * @example
   * for await (const order of client.paginate('/v10/orders', { params: { query: { limit: 100 } } })) …
   */
  paginate<P extends ListPath>(path: P, ...options: ListArgs<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /** The pages of a cursor list (`{ <key>: [...], has_more, next_cursor }`), first to last. */
  pages<P extends ListPath>(path: P, ...options: ListArgs<P>): AsyncGenerator<ListPage<P>, void, undefined>;
}

type LooseOptions = Omit<OutgoingCall, 'method' | 'path'>;

/**
 * Makes a client for the API at `options.baseUrl`.
 *
 * @example
 * const client = createClient({ baseUrl: 'https://api.brand.example', accessToken, appKey });
 * const { data: order, etag } = await client.GET('/v10/orders/{id}', { params: { path: { id: '42' } } });
 * await client.POST('/v10/orders/{id}/approve', { params: { path: { id: '42' } }, ifMatch: etag! });
 */
export function createClient(options: ClientOptions): BrandClient {
  const transport = new Transport(options);
  const method =
    (name: string) =>
    (path: string, callOptions: LooseOptions = {}): Promise<ApiResult<unknown>> =>
      transport.send({ ...callOptions, method: name, path });

  async function* pages(path: string, callOptions: LooseOptions = {}) {
    const fetchPage = async (query: Record<string, unknown>) => {
      const result = await transport.send({
        ...callOptions,
        method: 'GET',
        path,
        params: { ...callOptions.params, query },
      });
      // Without ifNoneMatch there is no 304: every answer here is a page.
      return result.data as Readonly<Record<string, unknown>>;
    };
    yield* walkPages(fetchPage, callOptions.params?.query ?? {});
  }

  async function* paginate(path: string, callOptions: LooseOptions = {}) {
    for await (const page of pages(path, callOptions)) yield* itemsOf(page);
  }

  // The typed surface is the interface; the functions behind it take the loose shapes it narrows.
  return {
    GET: method('GET'),
    POST: method('POST'),
    PUT: method('PUT'),
    PATCH: method('PATCH'),
    DELETE: method('DELETE'),
    pages,
    paginate,
  } as unknown as BrandClient;
}
