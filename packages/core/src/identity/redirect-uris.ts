import { ViolationList } from '../shared/errors';
import { OAuthClient } from './identity.entities';

/** The longest redirect URI an app may register. */
export const MAX_REDIRECT_URI_LENGTH = 2048;
/** How many redirect URIs one app may register. */
export const MAX_REDIRECT_URIS = 10;

/** Hosts that name the machine itself: only there may a redirect URI use plain http (RFC 8252 §7.3). */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * What is wrong with `uri` as a redirect URI, or null: it must be an absolute `https` URL, or
 * `http` on a loopback host (a native app listening on the user's own machine, RFC 8252 §7.3); at
 * most 2048 characters; no fragment (RFC 6749 §3.1.2: the code is added to the query); no user
 * name or password (`https://good.example@evil.example/` reads as the first host and goes to the
 * second); no spaces or control characters.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `must be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(uri)) return 'must not contain spaces or control characters';
  const parts = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)[^#]*(#.*)?$/i.exec(uri);
  if (!parts) return 'must be an absolute URL such as https://app.example.com/callback';
  const [, scheme = '', authority = '', fragment] = parts;
  if (fragment !== undefined) return 'must not have a fragment (#…)';
  if (authority.includes('@')) return 'must not carry a user name or password';
  const hostAndPort = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(authority);
  if (!hostAndPort || Number(hostAndPort[2] ?? 0) > 65_535) return 'must name a host (and a valid port, if any)';
  const host = hostAndPort[1]!.toLowerCase();
  switch (scheme.toLowerCase()) {
    case 'https':
      return null;
    case 'http':
      return LOOPBACK_HOSTS.includes(host)
        ? null
        : 'may use http only on a loopback host (localhost, 127.0.0.1 or [::1]); use https';
    default:
      return 'must be an https URL (or http on a loopback host)';
  }
}

/**
 * Checks the redirect URIs an app registers (each by `redirectUriProblem`, at most 10) and
 * answers them without repeats, in the order given. Violations point at `/redirect_uris/<i>`.
 */
export function checkRedirectUris(redirectUris: string[], violations: ViolationList): string[] {
  redirectUris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri);
    if (problem) violations.add(`/redirect_uris/${i}`, problem);
  });
  const distinct = [...new Set(redirectUris)];
  if (distinct.length > MAX_REDIRECT_URIS)
    violations.add('/redirect_uris', `must hold at most ${MAX_REDIRECT_URIS} URIs, not ${distinct.length}`);
  return distinct;
}

/**
 * Whether `redirectUri` is one the client registered: the exact string, character for character
 * (no normalising of case, ports, paths or query), as OAuth 2.0 Security BCP (RFC 9700 §4.1.3)
 * asks, so no look-alike URI ever receives a code.
 */
export function isRegisteredRedirectUri(client: OAuthClient, redirectUri: string): boolean {
  return client.redirectUris.includes(redirectUri);
}
