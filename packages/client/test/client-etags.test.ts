import { BrandApiError } from '../src';
import { ScriptedServer, errorBody } from './support/scripted-server';
import { recordingClient } from './support/test-client';

describe('ETags', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server.close());

  it('exposes the ETag of an answer and sends it back as If-Match', async () => {
    server.script(
      { status: 200, headers: { ETag: '"v1"' }, body: { id: 3, status: 'draft' } },
      { status: 200, headers: { ETag: '"v2"' }, body: { id: 3, status: 'approved' } },
    );
    const { client } = recordingClient(server.baseUrl);

    const read = await client.GET('/v10/orders/{id}', { params: { path: { id: '3' } } });
    const approved = await client.POST('/v10/orders/{id}/approve', {
      params: { path: { id: '3' } },
      ifMatch: read.etag!,
    });

    expect(read.etag).toBe('"v1"');
    expect(server.requests[1]!.headers['if-match']).toBe('"v1"');
    expect(approved.etag).toBe('"v2"');
    expect(approved.notModified).toBe(false);
  });

  it('answers a 412 as a precondition_failed error with the current ETag', async () => {
    server.script({
      status: 412,
      headers: { ETag: '"v9"' },
      body: errorBody(412, 'precondition_failed', { source: { header: 'If-Match' } }),
    });
    const { client } = recordingClient(server.baseUrl);

    const error = await client
      .PATCH('/v10/customers/{id}', { params: { path: { id: '7' } }, body: { name: 'Ada' }, ifMatch: '"v1"' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BrandApiError);
    expect(error).toMatchObject({ status: 412, code: 'precondition_failed', header: 'If-Match', etag: '"v9"' });
    expect(server.requests).toHaveLength(1);
  });

  it('surfaces a 304 as notModified, not as an error', async () => {
    server.script({ status: 304, headers: { ETag: '"v1"' } });
    const { client } = recordingClient(server.baseUrl);

    const result = await client.GET('/v10/customers/{id}', { params: { path: { id: '7' } }, ifNoneMatch: '"v1"' });

    expect(server.requests[0]!.headers['if-none-match']).toBe('"v1"');
    expect(result).toMatchObject({ notModified: true, status: 304, etag: '"v1"', data: undefined });
    if (!result.notModified) {
      // Narrowing on notModified gives the typed body.
      const name: string = result.data.customer.name;
      expect(name).toBeDefined();
    }
  });
});
