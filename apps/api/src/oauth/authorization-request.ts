import { ALL_SCOPES, OAuthClient, Scope, isRegisteredRedirectUri, isScope } from '@brand/core';
import { CarriedAuthorizationRequest } from './authorize.pages';

/** A checked authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636 §4.3). */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  /** The client's `state`, returned untouched; null when it sent none. */
  state: string | null;
  scopes: Scope[];
  codeChallenge: string;
  /** The parameters as received, for the pages' hidden fields. */
  carried: CarriedAuthorizationRequest;
}

/** The outcome of checking an authorization request, in the order RFC 6749 §4.1.2.1 asks for. */
export type AuthorizationRequestCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  /** The client or its redirect URI cannot be trusted: shown to the user, never redirected. */
  | { kind: 'untrusted'; message: string }
  /** A trusted client sent a bad request: told at its redirect URI. */
  | { kind: 'redirect_error'; redirectUri: string; state: string | null; error: string; description: string };

const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The parameter as one string; undefined when absent, null when repeated or not a plain value (a repeated parameter is invalid, RFC 6749 §3.1). */
function single(params: Record<string, unknown>, name: string): string | undefined | null {
  const value = params[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : null;
}

/**
 * Checks an authorization request's parameters (from the query, or carried along in a form):
 * first the client and its redirect URI, whose failure is never redirected (it could send the
 * user to an attacker's URI), then the rest, whose failures go to the redirect URI with the
 * client's `state`. `findClient` answers the app of a client id, or null.
 */
export async function checkAuthorizationRequest(
  params: Record<string, unknown>,
  findClient: (clientId: string) => Promise<OAuthClient | null>,
): Promise<AuthorizationRequestCheck> {
  const clientId = single(params, 'client_id');
  if (!clientId)
    return { kind: 'untrusted', message: 'The request names no client (client_id is missing or repeated).' };
  const client = await findClient(clientId);
  if (!client) return { kind: 'untrusted', message: 'The app asking for access (client_id) is not known here.' };
  const redirectUri = single(params, 'redirect_uri');
  if (!redirectUri)
    return { kind: 'untrusted', message: 'The request has no redirect_uri (or more than one); the app must send one.' };
  if (!isRegisteredRedirectUri(client, redirectUri))
    return {
      kind: 'untrusted',
      message: 'The redirect_uri is not one this app registered, so you are not sent there.',
    };

  const rawState = single(params, 'state');
  // The pages carry an absent state as an empty field: both mean none.
  const state = typeof rawState === 'string' && rawState !== '' ? rawState : null;
  const refuse = (error: string, description: string): AuthorizationRequestCheck => ({
    kind: 'redirect_error',
    redirectUri,
    state,
    error,
    description,
  });
  if (rawState === null) return refuse('invalid_request', 'state must be given at most once');

  const responseType = single(params, 'response_type');
  if (!responseType) return refuse('invalid_request', 'response_type is required (code)');
  if (responseType !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
  const codeChallenge = single(params, 'code_challenge');
  if (!codeChallenge) return refuse('invalid_request', 'code_challenge is required (PKCE, RFC 7636)');
  if (!CODE_CHALLENGE.test(codeChallenge))
    return refuse('invalid_request', 'code_challenge must be 43-128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~"');
  const method = single(params, 'code_challenge_method');
  if (method !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256');

  const scope = single(params, 'scope');
  if (scope === null) return refuse('invalid_scope', 'scope must be given at most once');
  const asked = scope === undefined || scope.trim() === '' ? [...ALL_SCOPES] : scope.trim().split(/ +/);
  const unknown = asked.filter((s) => !isScope(s));
  if (unknown.length > 0) return refuse('invalid_scope', `not a scope: ${unknown.join(' ')}`);
  const scopes = [...new Set(asked as Scope[])];

  return {
    kind: 'valid',
    request: {
      client,
      redirectUri,
      state,
      scopes,
      codeChallenge,
      carried: {
        response_type: responseType,
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: scopes.join(' '),
        state: state ?? '',
        code_challenge: codeChallenge,
        code_challenge_method: method,
      },
    },
  };
}

/** `redirectUri` with the parameters added to its query (its own query kept, RFC 6749 §3.1.2). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.append(name, value);
  return url.toString();
}
