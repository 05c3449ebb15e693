import { ScriptedServer } from './support/scripted-server';
import { recordingClient } from './support/test-client';

const event = (n: number) => ({
  id: `evt_${n}`,
  type: 'order.created',
  created_at: '2026-03-01T09:00:00.000Z',
  data: { object: {} },
});

/** Three pages of two events, chained by cursor, as the API answers them. */
function threePages(url: string) {
  const cursor = new URL(url, 'http://x').searchParams.get('cursor');
  if (cursor === null)
    return { status: 200, body: { events: [event(1), event(2)], has_more: true, next_cursor: 'c2' } };
  if (cursor === 'c2')
    return { status: 200, body: { events: [event(3), event(4)], has_more: true, next_cursor: 'c3' } };
  return { status: 200, body: { events: [event(5), event(6)], has_more: false, next_cursor: null } };
}

describe('paginate', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server.close());

  it('yields every item of every page, following next_cursor until has_more is false', async () => {
    server.respond((request) => threePages(request.url));
    const { client } = recordingClient(server.baseUrl);

    const ids: string[] = [];
    for await (const item of client.paginate('/v10/events', { params: { query: { limit: 2 } } })) ids.push(item.id);

    expect(ids).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5', 'evt_6']);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v10/events?limit=2',
      '/v10/events?limit=2&cursor=c2',
      '/v10/events?limit=2&cursor=c3',
    ]);
  });

  it('yields the pages themselves through pages()', async () => {
    server.respond((request) => threePages(request.url));
    const { client } = recordingClient(server.baseUrl);

    const pages = [];
    for await (const page of client.pages('/v10/events')) pages.push(page);

    expect(pages.map((page) => page.events.length)).toEqual([2, 2, 2]);
    expect(pages.map((page) => page.next_cursor)).toEqual(['c2', 'c3', null]);
  });

  it('starts after the given id, then follows the cursor alone', async () => {
    server.respond((request) => threePages(request.url));
    const { client } = recordingClient(server.baseUrl);

    const ids: string[] = [];
    for await (const item of client.paginate('/v10/events', { params: { query: { starting_after: 'evt_0' } } }))
      ids.push(item.id);

    expect(ids).toHaveLength(6);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v10/events?starting_after=evt_0',
      '/v10/events?cursor=c2',
      '/v10/events?cursor=c3',
    ]);
  });

  it('sends filters, sort and includes in the bracket notation the API reads', async () => {
    server.script({ status: 200, body: { orders: [], has_more: false, next_cursor: null } });
    const { client } = recordingClient(server.baseUrl);

    for await (const _ of client.paginate('/v10/orders', {
      params: {
        query: {
          filter_groups: [{ filters: [{ key: 'updated_at', operator: 'gte', value: '2026-01-01T00:00:00Z' }] }],
          sort: [{ key: 'updated_at', direction: 'DESC' }],
          'includes[]': ['lines'],
        },
      },
    }));

    expect(decodeURIComponent(server.requests[0]!.url)).toBe(
      '/v10/orders?filter_groups[0][filters][0][key]=updated_at&filter_groups[0][filters][0][operator]=gte' +
        '&filter_groups[0][filters][0][value]=2026-01-01T00:00:00Z&sort[0][key]=updated_at&sort[0][direction]=DESC' +
        '&includes[]=lines',
    );
  });

  it('follows the path parameters of a nested list', async () => {
    server.script({ status: 200, body: { deliveries: [{ id: 'd1' }], has_more: false, next_cursor: null } });
    const { client } = recordingClient(server.baseUrl);

    const items = [];
    for await (const delivery of client.paginate('/v10/webhook-endpoints/{id}/deliveries', {
      params: { path: { id: 'we_1' } },
    }))
      items.push(delivery);

    expect(items).toHaveLength(1);
    expect(server.requests[0]!.url).toBe('/v10/webhook-endpoints/we_1/deliveries');
  });
});
