import { ViolationList } from '../shared/errors';
import { Scope, isScope } from '../identity/scopes';
import {
  DEFAULT_OAUTH_ACCESS_TOKEN_LIFETIME_SECONDS,
  DEFAULT_REFRESH_TOKEN_LIFETIME_SECONDS,
  GrantTokenLifetimes,
  PKCE_METHODS,
  PkceMethod,
} from './oauth.entities';

/** RFC 7636 §4.2: a code challenge is 43–128 characters of ALPHA / DIGIT / "-" / "." / "_" / "~". */
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * The lifetimes of a grant's tokens in seconds, the defaults filling what is not given; violations
 * at `/access_token_lifetime_seconds` or `/refresh_token_lifetime_seconds` for what is not a
 * positive whole number of seconds.
 */
export function checkTokenLifetimes(
  violations: ViolationList,
  lifetimes: GrantTokenLifetimes,
): { accessTokenSeconds: number; refreshTokenSeconds: number } {
  const check = (pointer: string, seconds: number) => {
    if (!Number.isSafeInteger(seconds) || seconds <= 0) violations.add(pointer, 'must be a positive number of seconds');
    return seconds;
  };
  return {
    accessTokenSeconds: check(
      '/access_token_lifetime_seconds',
      lifetimes.accessTokenLifetimeSeconds ?? DEFAULT_OAUTH_ACCESS_TOKEN_LIFETIME_SECONDS,
    ),
    refreshTokenSeconds: check(
      '/refresh_token_lifetime_seconds',
      lifetimes.refreshTokenLifetimeSeconds ?? DEFAULT_REFRESH_TOKEN_LIFETIME_SECONDS,
    ),
  };
}

/**
 * The scopes asked for, each once, when every one is a scope (and, given `within`, one of its
 * scopes); violations at `/scopes/<i>` otherwise, and at `/scopes` for an empty list (a token
 * without scopes could do nothing). `within.refusal` says why a scope outside it is refused.
 */
export function checkScopes(
  violations: ViolationList,
  scopes: readonly string[],
  within?: { scopes: readonly Scope[]; refusal: string },
): Scope[] {
  if (scopes.length === 0) violations.add('/scopes', 'must name at least one scope');
  scopes.forEach((scope, i) => {
    if (!isScope(scope))
      violations.add(`/scopes/${i}`, `${JSON.stringify(scope)} is not a scope; use area:read or area:write`);
    else if (within && !within.scopes.includes(scope))
      violations.add(`/scopes/${i}`, `${JSON.stringify(scope)} ${within.refusal}`);
  });
  return [...new Set(scopes as Scope[])];
}

/** Checks a PKCE challenge and its method; answers the method, or null with a violation when it is not one of `PKCE_METHODS`. */
export function checkCodeChallenge(violations: ViolationList, challenge: string, method: string): PkceMethod | null {
  if (!CODE_CHALLENGE.test(challenge))
    violations.add('/code_challenge', 'must be 43-128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~" (RFC 7636)');
  const known = PKCE_METHODS.find((m) => m === method) ?? null;
  if (!known) violations.add('/code_challenge_method', `must be ${PKCE_METHODS.join(' or ')}`);
  return known;
}
