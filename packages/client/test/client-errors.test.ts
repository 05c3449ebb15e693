import { BrandApiError } from '../src';
import { ScriptedServer } from './support/scripted-server';
import { recordingClient } from './support/test-client';

describe('errors', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server.close());

  it('throws a BrandApiError carrying the envelope, the first error lifted onto it', async () => {
    server.script({
      status: 422,
      headers: { 'X-Request-Id': 'req-abc' },
      body: {
        errors: [
          {
            status: 422,
            code: 'validation_failed',
            title: 'Validation error',
            detail: 'name must not be empty',
            source: { pointer: '/name' },
          },
          {
            status: 422,
            code: 'validation_failed',
            title: 'Validation error',
            detail: 'currency must be an ISO 4217 code',
            source: { pointer: '/currency' },
          },
        ],
      },
    });
    const { client } = recordingClient(server.baseUrl);

    const error = await client
      .POST('/v10/customers', { body: { customer_number: 'C-1', name: '', currency: 'euro' } })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BrandApiError);
    const apiError = error as BrandApiError;
    expect(apiError).toMatchObject({
      status: 422,
      code: 'validation_failed',
      title: 'Validation error',
      detail: 'name must not be empty',
      pointer: '/name',
      parameter: null,
      header: null,
      requestId: 'req-abc',
      method: 'POST',
      url: `${server.baseUrl}/v10/customers`,
    });
    expect(apiError.errors.map((e) => e.source?.pointer)).toEqual(['/name', '/currency']);
    expect(apiError.message).toContain('422 validation_failed: name must not be empty');
  });

  it('names the query parameter at fault', async () => {
    server.script({
      status: 422,
      body: {
        errors: [
          {
            status: 422,
            code: 'invalid_list_query',
            title: 'Validation error',
            detail: 'unknown key',
            source: { parameter: 'filter_groups[0][filters][0][key]', pointer: '/filter_groups/0/filters/0/key' },
          },
        ],
      },
    });
    const { client } = recordingClient(server.baseUrl);

    await expect(client.GET('/v10/orders')).rejects.toMatchObject({
      parameter: 'filter_groups[0][filters][0][key]',
    });
  });

  it('turns an answer without the envelope (a proxy page) into an error naming its status', async () => {
    server.respond(() => ({ status: 502, body: '<html>Bad gateway</html>' }));
    const { client } = recordingClient(server.baseUrl);

    await expect(client.GET('/v10/orders')).rejects.toMatchObject({
      status: 502,
      code: 'http_502',
      errors: [{ status: 502, code: 'http_502' }],
    });
  });
});
