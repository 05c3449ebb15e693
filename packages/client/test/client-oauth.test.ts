import { BrandOAuthError, OAuthTokens } from '../src';
import { ReceivedRequest, ScriptedAnswer, ScriptedServer, errorBody } from './support/scripted-server';
import { recordingClient } from './support/test-client';

/**
 * A token endpoint that rotates: each refresh token works once and answers the next pair; the API
 * accepts only the latest access token and answers 401 invalid_token to any other.
 */
function rotatingAuthorizationServer() {
  let generation = 1;
  const state = { validAccessToken: 'access-1' };
  const answer = (request: ReceivedRequest): ScriptedAnswer => {
    if (request.url === '/oauth/token') {
      const form = new URLSearchParams(request.body);
      if (form.get('refresh_token') !== `refresh-${generation}`)
        return { status: 400, body: { error: 'invalid_grant', error_description: 'The refresh token is spent' } };
      generation += 1;
      state.validAccessToken = `access-${generation}`;
      return {
        status: 200,
        body: {
          access_token: state.validAccessToken,
          token_type: 'Bearer',
          expires_in: 3600,
          refresh_token: `refresh-${generation}`,
          scope: 'orders:read',
        },
      };
    }
    if (request.headers.authorization !== `Bearer ${state.validAccessToken}`)
      return {
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm="brand", error="invalid_token"' },
        body: errorBody(401, 'unauthenticated'),
      };
    return { status: 200, body: { id: 1 } };
  };
  return { answer, state };
}

describe('OAuth refresh', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server.close());

  const oauthClient = (accessToken: string | undefined, onTokens: (tokens: OAuthTokens) => void) =>
    recordingClient(server.baseUrl, {
      accessToken,
      appKey: undefined,
      oauth: { clientId: 'client-1', clientSecret: 'app-key-1', refreshToken: 'refresh-1', onTokens },
    }).client;

  it('refreshes once for concurrent calls refused with an expired token, and replays each', async () => {
    const authorization = rotatingAuthorizationServer();
    authorization.state.validAccessToken = 'access-0';
    server.respond(authorization.answer);
    const issued: OAuthTokens[] = [];
    const client = oauthClient('access-expired', (tokens) => issued.push(tokens));

    const results = await Promise.all(
      ['1', '2', '3'].map((id) => client.GET('/v10/orders/{id}', { params: { path: { id } } })),
    );

    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    const refreshes = server.requests.filter((request) => request.url === '/oauth/token');
    expect(refreshes).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(refreshes[0]!.body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
      client_id: 'client-1',
      client_secret: 'app-key-1',
    });
    expect(issued).toEqual([
      { accessToken: 'access-2', refreshToken: 'refresh-2', expiresIn: 3600, scope: 'orders:read' },
    ]);
    // The app key of an OAuth client is its client secret.
    expect(
      server.requests.every((r) => r.url === '/oauth/token' || r.headers['x-service-app-key'] === 'app-key-1'),
    ).toBe(true);
  });

  it('uses the rotated refresh token for the next refresh', async () => {
    const authorization = rotatingAuthorizationServer();
    server.respond(authorization.answer);
    const issued: OAuthTokens[] = [];
    const client = oauthClient('access-1', (tokens) => issued.push(tokens));

    for (const _expiry of [1, 2]) {
      authorization.state.validAccessToken = 'a token the client does not hold';
      await client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } });
    }

    const refreshTokensSent = server.requests
      .filter((request) => request.url === '/oauth/token')
      .map((request) => new URLSearchParams(request.body).get('refresh_token'));
    expect(refreshTokensSent).toEqual(['refresh-1', 'refresh-2']);
    expect(issued.map((tokens) => tokens.refreshToken)).toEqual(['refresh-2', 'refresh-3']);
  });

  it('refreshes and replays a call once: a second 401 is thrown', async () => {
    const authorization = rotatingAuthorizationServer();
    server.respond((request) =>
      request.url === '/oauth/token'
        ? authorization.answer(request)
        : { status: 401, body: errorBody(401, 'unauthenticated') },
    );
    const client = oauthClient('access-1', () => undefined);

    await expect(client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } })).rejects.toMatchObject({
      status: 401,
      code: 'unauthenticated',
    });
    expect(server.requests.map((request) => request.url)).toEqual(['/v10/orders/1', '/oauth/token', '/v10/orders/1']);
  });

  it('fetches an access token first when made with a refresh token only', async () => {
    const authorization = rotatingAuthorizationServer();
    server.respond(authorization.answer);
    const client = oauthClient(undefined, () => undefined);

    const result = await client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } });

    expect(result.status).toBe(200);
    expect(server.requests.map((request) => request.url)).toEqual(['/oauth/token', '/v10/orders/1']);
    expect(server.requests[1]!.headers.authorization).toBe('Bearer access-2');
  });

  it('throws a BrandOAuthError when the refresh token is refused', async () => {
    const authorization = rotatingAuthorizationServer();
    server.respond(authorization.answer);
    const client = recordingClient(server.baseUrl, {
      accessToken: 'access-expired',
      oauth: { clientId: 'client-1', clientSecret: 'app-key-1', refreshToken: 'refresh-spent' },
    }).client;

    const error = await client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BrandOAuthError);
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      errorDescription: 'The refresh token is spent',
    });
  });

  it('sends a plain access token and app key without OAuth', async () => {
    server.script({ status: 200, body: { id: 1 } });
    const { client } = recordingClient(server.baseUrl);

    await client.GET('/v10/orders/{id}', { params: { path: { id: '1' } } });

    expect(server.requests[0]!.headers.authorization).toBe('Bearer token-1');
    expect(server.requests[0]!.headers['x-service-app-key']).toBe('app-key-1');
  });
});
