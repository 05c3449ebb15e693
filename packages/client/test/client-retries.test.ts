import { BrandApiError, BrandNetworkError, components } from '../src';
import { ScriptedServer, errorBody } from './support/scripted-server';
import { recordingClient } from './support/test-client';

const newCustomer = { customer_number: 'C-1', name: 'Ada Shop', currency: 'EUR' };
const created = { status: 201, body: { id: 1, name: 'Ada Shop' } };

describe('retries', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server.close());

  it('sends one Idempotency-Key on a POST and the same key on every retry of it', async () => {
    server.script({ status: 503, body: errorBody(503, 'storage_unavailable') }, 'drop connection', created);
    const { client } = recordingClient(server.baseUrl);

    const result = await client.POST('/v10/customers', { body: newCustomer });

    expect(result.status).toBe(201);
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(server.requests.every((request) => request.body === JSON.stringify(newCustomer))).toBe(true);
  });

  it('makes a new key for each call', async () => {
    server.script(created);
    const { client } = recordingClient(server.baseUrl);

    await client.POST('/v10/customers', { body: newCustomer });
    await client.POST('/v10/customers', { body: newCustomer });

    expect(server.requests[0]!.headers['idempotency-key']).not.toBe(server.requests[1]!.headers['idempotency-key']);
  });

  it("sends the caller's own key when one is given, on PUT and PATCH too", async () => {
    server.script({ status: 200, body: {} });
    const { client } = recordingClient(server.baseUrl);

    await client.POST('/v10/customers', { body: newCustomer, idempotencyKey: 'import-2026-03-01-C-1' });
    await client.PATCH('/v10/customers/{id}', { params: { path: { id: '7' } }, body: { name: 'Ada' } });
    await client.PUT('/v10/external-return-portals/{publicId}/returns', {
      params: { path: { publicId: 'portal-1' } },
      body: {} as components['schemas']['UpsertPortalReturnDto'],
    });

    expect(server.requests[0]!.headers['idempotency-key']).toBe('import-2026-03-01-C-1');
    expect(server.requests[1]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.requests[2]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends no Idempotency-Key on a GET and retries it after a network error', async () => {
    server.script('drop connection', { status: 200, body: { id: 5 } });
    const { client, waits } = recordingClient(server.baseUrl);

    const result = await client.GET('/v10/orders/{id}', { params: { path: { id: '5' } } });

    expect(result.data).toEqual({ id: 5 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.headers['idempotency-key']).toBeUndefined();
    expect(waits).toHaveLength(1);
  });

  it('retries a 409 idempotency_key_in_use but not another 409', async () => {
    server.script(
      { status: 409, body: errorBody(409, 'idempotency_key_in_use'), headers: { 'Retry-After': '1' } },
      created,
    );
    const { client, waits } = recordingClient(server.baseUrl);
    await client.POST('/v10/customers', { body: newCustomer });
    expect(server.requests).toHaveLength(2);
    expect(waits).toEqual([1000]);

    server.script({ status: 409, body: errorBody(409, 'concurrency_conflict') });
    await expect(client.POST('/v10/customers', { body: newCustomer })).rejects.toMatchObject({
      status: 409,
      code: 'concurrency_conflict',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('waits as long as Retry-After says, in seconds or as an HTTP date', async () => {
    const now = Date.parse('2026-03-01T09:00:00Z');
    server.script(
      { status: 429, body: errorBody(429, 'rate_limited'), headers: { 'Retry-After': '7' } },
      { status: 503, body: errorBody(503, 'maintenance'), headers: { 'Retry-After': 'Sun, 01 Mar 2026 09:00:30 GMT' } },
      { status: 200, body: { id: 1 } },
    );
    const { client, waits } = recordingClient(server.baseUrl, { now: () => now });

    await client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } });

    expect(waits).toEqual([7000, 30_000]);
  });

  it('backs off exponentially with jitter when the answer gives no Retry-After', async () => {
    server.script({ status: 503, body: errorBody(503, 'storage_unavailable') });
    const { client, waits } = recordingClient(server.baseUrl, {
      retries: 3,
      retry: { baseDelayMs: 100, maxDelayMs: 300 },
      random: () => 1,
    });

    await expect(client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } })).rejects.toBeInstanceOf(
      BrandApiError,
    );

    // Steps 100, 200, 400 capped at 300; with the jitter at its top, each wait is the full step.
    expect(waits).toEqual([100, 200, 300]);
  });

  it('gives up after the configured number of retries', async () => {
    server.script({ status: 503, body: errorBody(503, 'storage_unavailable') });
    const { client } = recordingClient(server.baseUrl, { retries: 2 });

    await expect(client.POST('/v10/customers', { body: newCustomer })).rejects.toMatchObject({
      status: 503,
      code: 'storage_unavailable',
    });
    expect(server.requests).toHaveLength(3);
  });

  it('reports a network failure that outlasts the retries as a BrandNetworkError', async () => {
    server.script('drop connection');
    const { client } = recordingClient(server.baseUrl, { retries: 1 });

    const failure = await client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } }).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(BrandNetworkError);
    expect(failure).toMatchObject({ attempts: 2, method: 'GET' });
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    [400, 'invalid_json'],
    [404, 'not_found'],
    [422, 'validation_failed'],
    [412, 'precondition_failed'],
  ])('never retries a %i', async (status, code) => {
    server.script({ status, body: errorBody(status, code) });
    const { client, waits } = recordingClient(server.baseUrl);

    await expect(client.POST('/v10/customers', { body: newCustomer })).rejects.toMatchObject({ status, code });

    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not wait out a Retry-After longer than the policy allows', async () => {
    server.script({ status: 429, body: errorBody(429, 'rate_limited'), headers: { 'Retry-After': '3600' } });
    const { client, waits } = recordingClient(server.baseUrl);

    await expect(client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } })).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 3600,
    });
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('stops retrying when the call is aborted', async () => {
    server.script({ status: 503, body: errorBody(503, 'storage_unavailable') });
    const controller = new AbortController();
    const { client } = recordingClient(server.baseUrl, {
      sleep: async () => controller.abort(new Error('caller gave up')),
    });

    await expect(
      client.GET('/v10/orders/{id}', { params: { path: { id: '1' } }, signal: controller.signal }),
    ).rejects.toThrow('caller gave up');
    expect(server.requests).toHaveLength(1);
  });
});
