import { createHash } from 'node:crypto';
import { Request, RequestHandler, Response } from 'express';
import { Sqlite } from './database';
import { httpErrors } from './http-errors';

/** Who is acting, as the project's Principal (less what the three routes never read). */
export interface Principal {
  brandId: number;
  userId: number;
  appId: number;
  tokenId: number;
  scopes: readonly string[];
}

/** How long a verified token is trusted without looking at the database again (the 2 s). */
const VERIFIED_FOR_MS = 2_000;
/** Verified tokens kept at most; beyond it the oldest go. */
const MAX_CACHED = 10_000;

// b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" (RFC 6750 §2.1)
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The access token of the request (header or `access_token` parameter), refused the way the project refuses it. */
function presentedToken(req: Request): string {
  const header = req.headers.authorization;
  const query: unknown = (req.query as Record<string, unknown>)['access_token'];
  let fromHeader: string | null = null;
  if (header !== undefined) {
    const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
    if (match) {
      const credentials = (match[1] ?? '').trim();
      if (!B64TOKEN.test(credentials))
        throw httpErrors.invalidToken('The Authorization header does not carry a well-formed bearer token');
      fromHeader = credentials;
    }
  }
  if (query === undefined) {
    if (fromHeader === null) throw httpErrors.missingToken();
    return fromHeader;
  }
  if (typeof query !== 'string') throw httpErrors.ambiguousToken('Send the access_token query parameter once');
  if (fromHeader !== null)
    throw httpErrors.ambiguousToken(
      'Send the access token either in the Authorization header or as access_token, not both',
    );
  if (!B64TOKEN.test(query))
    throw httpErrors.invalidToken('The access_token query parameter is not a well-formed token');
  return query;
}

/** The project's SecretHasher: SHA-256 hex of access tokens and app keys. */
const sha256 = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

interface TokenRow {
  id: number;
  brand_id: number;
  user_id: number;
  app_id: number;
  scopes: string;
  expires_at: string;
  revoked_at: string | null;
}

/**
 * Checks a token and app key against their stored hashes, as the project's stored-token verifier
 * does, and trusts a verified pair for `VERIFIED_FOR_MS` (a revocation takes up to that long to
 * bite). Expiry is checked on every request; failures are never cached.
 */
export function tokenVerifier(db: Sqlite): (accessToken: string, appKey: string | null) => Principal {
  // As the project reads them (DESIGN §9): the token's brand from the look-up of global values,
  // then the token and its app within that brand, by their keys.
  const findToken = db.prepare<[string, string], TokenRow>(
    'select id, brand_id, user_id, app_id, scopes, expires_at, revoked_at from access_tokens ' +
      "where brand_id = (select brand_id from brand_lookups where kind = 'access_token' and value = ?) " +
      'and token_hash = ?',
  );
  const findAppKeyHash = db
    .prepare<[number, number], string>('select app_key_hash from api_apps where brand_id = ? and id = ?')
    .pluck();
  const verified = new Map<string, { principal: Principal; expiresAt: string; trustedUntil: number }>();

  return (accessToken, appKey) => {
    const now = Date.now();
    const cacheKey = `${accessToken} ${appKey ?? ''}`;
    const cached = verified.get(cacheKey);
    if (cached && cached.trustedUntil > now) {
      if (cached.expiresAt <= new Date(now).toISOString())
        throw httpErrors.invalidToken('The access token has expired');
      return cached.principal;
    }
    const hash = sha256(accessToken);
    const token = findToken.get(hash, hash);
    if (!token) throw httpErrors.invalidToken('The access token is not valid');
    if (token.revoked_at !== null) throw httpErrors.invalidToken('The access token has been revoked');
    if (token.expires_at <= new Date(now).toISOString()) throw httpErrors.invalidToken('The access token has expired');
    const appKeyHash = findAppKeyHash.get(token.brand_id, token.app_id);
    if (appKeyHash === undefined) throw httpErrors.invalidToken('The access token is not valid');
    if (!appKey) throw httpErrors.invalidToken('The X-Service-App-Key header is required');
    if (sha256(appKey) !== appKeyHash)
      throw httpErrors.invalidToken('The app key does not belong to the app of this access token');
    const principal: Principal = {
      brandId: Number(token.brand_id),
      userId: Number(token.user_id),
      appId: Number(token.app_id),
      tokenId: Number(token.id),
      scopes: JSON.parse(token.scopes) as string[],
    };
    verified.delete(cacheKey);
    if (verified.size >= MAX_CACHED) verified.delete(verified.keys().next().value!);
    verified.set(cacheKey, { principal, expiresAt: token.expires_at, trustedUntil: now + VERIFIED_FOR_MS });
    return principal;
  };
}

const PRINCIPAL = 'principal';

export function principalOf(res: Response): Principal | null {
  return (res.locals[PRINCIPAL] as Principal | undefined) ?? null;
}

/** Resolves the principal of a /v10 request (token and the X-Service-App-Key of its app) or answers 401. */
export function authenticate(verify: ReturnType<typeof tokenVerifier>): RequestHandler {
  return (req, res, next) => {
    res.locals[PRINCIPAL] = verify(presentedToken(req), req.get('X-Service-App-Key') ?? null);
    next();
  };
}

/** 403 naming the scopes the token lacks. */
export function requireScopes(...required: string[]): RequestHandler {
  return (_req, res, next) => {
    const granted = principalOf(res)?.scopes ?? [];
    const missing = required.filter((scope) => !granted.includes(scope));
    if (missing.length > 0) throw httpErrors.insufficientScope(missing);
    next();
  };
}
