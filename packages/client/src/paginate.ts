import type { PathsWith, RequestArgs, SuccessData } from './typed-paths';

/** The envelope fields of a list page; the one other field holds the items. */
type EnvelopeField = 'has_more' | 'next_cursor' | 'total';

/** A page of a cursor list: `{ "<key>": [...], has_more, next_cursor, total? }`. */
interface ListEnvelope {
  has_more: boolean;
  next_cursor: string | null;
}

/** The GET paths whose answer is a cursor list. */
export type ListPath = {
  [P in PathsWith<'get'>]: SuccessData<P, 'get'> extends ListEnvelope ? P : never;
}[PathsWith<'get'>];

/** One page of the list at `P`. */
export type ListPage<P extends ListPath> = SuccessData<P, 'get'>;

/** One item of the list at `P`. */
export type ListItem<P extends ListPath> = {
  [K in Exclude<keyof ListPage<P>, EnvelopeField>]: ListPage<P>[K] extends readonly (infer I)[] ? I : never;
}[Exclude<keyof ListPage<P>, EnvelopeField>];

/** What a list call takes: the GET's own parameters and options. */
export type ListArgs<P extends ListPath> = RequestArgs<P, 'get'>;

/** The field of a page holding its items: the one array that is not part of the envelope. */
export function itemsOf(page: Readonly<Record<string, unknown>>): unknown[] {
  for (const [key, value] of Object.entries(page))
    if (key !== 'has_more' && key !== 'next_cursor' && key !== 'total' && Array.isArray(value)) return value;
  throw new TypeError('The answer is not a list page: it has no array of items');
}

/**
 * The pages of a cursor list, first to last. The first request is the caller's (with its filters,
 * sort, limit and any `starting_after`); each next one adds `cursor` = the page's `next_cursor`
 * and drops `starting_after` and `page`, which the API does not take together with a cursor.
 */
export async function* walkPages(
  fetchPage: (query: Record<string, unknown>) => Promise<Readonly<Record<string, unknown>>>,
  firstQuery: Readonly<Record<string, unknown>>,
): AsyncGenerator<Readonly<Record<string, unknown>>, void, undefined> {
  let query: Record<string, unknown> = { ...firstQuery };
  for (;;) {
    const page = await fetchPage(query);
    yield page;
    const next = page['next_cursor'];
    if (page['has_more'] !== true || typeof next !== 'string') return;
    const { starting_after: _startingAfter, page: _page, ...rest } = query;
    query = { ...rest, cursor: next };
  }
}
