import { ScriptedServer } from './support/scripted-server';
import { recordingClient } from './support/test-client';

describe('typed calls', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server.close());

  it('fill the path parameters, percent-encoded, and type the answer by its path', async () => {
    server.script({ status: 200, body: { order: { id: 1 } } });
    const { client } = recordingClient(server.baseUrl);

    const result = await client.GET('/v10/orders/{id}', { params: { path: { id: 'a/b c' } } });
    const orderId: number = result.data.order.id;

    expect(server.requests[0]!.url).toBe('/v10/orders/a%2Fb%20c');
    expect(orderId).toBe(1);
  });

  it('answer a 204 with no data', async () => {
    server.script({ status: 204 });
    const { client } = recordingClient(server.baseUrl);

    const result = await client.DELETE('/v10/webhook-endpoints/{id}', { params: { path: { id: 'we_1' } } });

    expect(result).toMatchObject({ status: 204, data: undefined, notModified: false, requestId: 'req-1' });
  });

  it('refuse at compile time what the document does not allow', () => {
    const { client } = recordingClient(server.baseUrl);
    // Never called: these lines are checked by the compiler (pnpm typecheck), not run.
    const unused = () => [
      // @ts-expect-error an unknown path
      client.GET('/v10/nothing-here'),
      // @ts-expect-error the path parameter is required
      client.GET('/v10/orders/{id}'),
      // @ts-expect-error the body is required
      client.POST('/v10/customers', {}),
      // @ts-expect-error a field the body does not have
      client.POST('/v10/customers', { body: { customer_number: 'C', name: 'N', currency: 'EUR', colour: 'red' } }),
      // @ts-expect-error no DELETE on this path
      client.DELETE('/v10/orders/{id}', { params: { path: { id: '1' } } }),
      // @ts-expect-error not a list
      client.paginate('/v10/orders/{id}', { params: { path: { id: '1' } } }),
    ];
    expect(typeof unused).toBe('function');
  });
});
