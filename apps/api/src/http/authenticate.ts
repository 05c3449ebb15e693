import { RequestHandler } from 'express';
import { TokenVerifier, isDomainError } from '@brand/core';
import { apiErrors } from './api-errors';
import { presentedToken } from './bearer-token';
import { setPrincipal } from './request-context';

/**
 * How a surface authenticates: `current` (token + X-Service-App-Key of the token's app),
 * `legacy` (token + a non-empty X-ServiceAppIdentifier naming the integration) or `none`.
 */
export type AuthKind = 'current' | 'legacy' | 'none';

/**
 * Resolves the request's principal or answers 401 (400 for a request that breaks the rules of
 * sending credentials). Verification reads storage on every request, so a revoked or expired
 * token fails from the very next request on every process.
 */
export function authenticate(kind: Exclude<AuthKind, 'none'>, verifier: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    if (kind === 'legacy' && (req.get('X-ServiceAppIdentifier') ?? '').trim() === '')
      throw apiErrors.missingAppIdentifier();
    const presented = presentedToken(req);
    switch (presented.kind) {
      case 'absent':
        throw apiErrors.missingToken();
      case 'ambiguous':
        throw apiErrors.ambiguousToken(presented.detail);
      case 'malformed':
        throw apiErrors.invalidToken(presented.detail);
      case 'token':
        break;
    }
    try {
      const principal = await verifier.verify({
        accessToken: presented.token,
        appKey: req.get('X-Service-App-Key') ?? null,
        requireAppKey: kind === 'current',
      });
      setPrincipal(res, principal);
    } catch (error) {
      if (isDomainError(error) && error.code === 'unauthenticated') throw apiErrors.invalidToken(error.message);
      throw error;
    }
    next();
  };
}
