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

/**
 * Which rules the baseline keeps: `same`, the project's (DESIGN §9: a revocation or key rotation
 * is seen on the very next request in every process, rate limits are shared by every process), or
 * `legacy`, the first baseline's (a verified token trusted for 2 s, rate limits counted in this
 * process's memory), kept as a second, labelled line.
 */
export type Contract = 'same' | 'legacy';

/** The baseline's contract from BASELINE_CONTRACT (default `same`). */
export function contractOf(env: NodeJS.ProcessEnv): Contract {
  const value = env['BASELINE_CONTRACT']?.trim() || 'same';
  if (value !== 'same' && value !== 'legacy') throw new Error(`BASELINE_CONTRACT must be same or legacy; got ${value}`);
  return value;
}

/** The legacy contract: how long a verified token is trusted without looking at the database again. */
const VERIFIED_FOR_MS = 2_000;
/** Verified tokens kept at most (the project's default); beyond it the oldest go. */
const MAX_CACHED = 10_000;

// b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" (RFC 6750 §2.1)
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The access token of the request (header or `access_token` parameter), refused the way the project refuses it. */
export function presentedToken(req: Request): string {
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
export const sha256 = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export interface TokenRow {
  id: number;
  brand_id: number;
  user_id: number;
  app_id: number;
  scopes: string;
  expires_at: string;
  revoked_at: string | null;
}

/**
 * The token's brand from the look-up of global values, then the token within that brand by its
 * hash, as the project reads it (DESIGN §9). Parameters: the hash twice.
 */
export const FIND_TOKEN_SQL =
  'select id, brand_id, user_id, app_id, scopes, expires_at, revoked_at from access_tokens ' +
  "where brand_id = (select brand_id from brand_lookups where kind = 'access_token' and value = ?) " +
  'and token_hash = ?';
export const FIND_APP_KEY_HASH_SQL = 'select app_key_hash from api_apps where brand_id = ? and id = ?';
/** The one row every request of the same contract reads. */
export const CREDENTIALS_REVISION_SQL = 'select revision from credentials_revision where id = 1';

/**
 * Verified tokens (keyed by token and app key as presented, so a hit hashes nothing), good while
 * nothing says otherwise: under the same contract until the credentials revision moves (then all
 * go, as the project's cache empties), under the legacy contract for `VERIFIED_FOR_MS`.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: string; trustedUntil: number }>();
  private revision = Number.NaN;

  constructor(private readonly contract: Contract) {}

  /** The principal of a token verified before and still trusted; throws once it has expired. `revision`: the one just read (same contract). */
  lookup(key: string, now: number, revision: number | undefined): Principal | undefined {
    if (this.contract === 'same' && revision !== this.revision) {
      this.entries.clear();
      this.revision = revision ?? Number.NaN;
      return undefined;
    }
    const cached = this.entries.get(key);
    if (!cached || cached.trustedUntil <= now) return undefined;
    if (cached.expiresAt <= new Date(now).toISOString()) throw httpErrors.invalidToken('The access token has expired');
    return cached.principal;
  }

  /** Keeps a verified token; under the same contract only if it was read under the current revision. */
  keep(key: string, now: number, revision: number | undefined, principal: Principal, expiresAt: string): void {
    if (this.contract === 'same' && revision !== this.revision) return;
    this.entries.delete(key);
    if (this.entries.size >= MAX_CACHED) this.entries.delete(this.entries.keys().next().value!);
    const trustedUntil = this.contract === 'same' ? Number.POSITIVE_INFINITY : now + VERIFIED_FOR_MS;
    this.entries.set(key, { principal, expiresAt, trustedUntil });
  }
}

/** The project's checks of a stored token and its app's key hash, in its order; the principal when they pass. */
export function checkStoredToken(
  token: TokenRow | undefined,
  appKeyHash: string | undefined,
  appKey: string | null,
  now: number,
): Principal {
  if (!token) throw httpErrors.invalidToken('The access token is not valid');
  if (token.revoked_at !== null) throw httpErrors.invalidToken('The access token has been revoked');
  if (token.expires_at <= new Date(now).toISOString()) throw httpErrors.invalidToken('The access token has expired');
  if (appKeyHash === undefined) throw httpErrors.invalidToken('The access token is not valid');
  if (!appKey) throw httpErrors.invalidToken('The X-Service-App-Key header is required');
  if (sha256(appKey) !== appKeyHash)
    throw httpErrors.invalidToken('The app key does not belong to the app of this access token');
  return {
    brandId: Number(token.brand_id),
    userId: Number(token.user_id),
    appId: Number(token.app_id),
    tokenId: Number(token.id),
    scopes: JSON.parse(token.scopes) as string[],
  };
}

/**
 * Checks a token and app key against their stored hashes, as the project's stored-token verifier
 * does, and keeps verified pairs in memory. Under the same contract every call first reads the
 * credentials revision (one row) and empties the cache when it moved, so a revocation or key
 * rotation committed by any process bites on the next request; under the legacy contract a
 * verified pair is trusted for `VERIFIED_FOR_MS`. Expiry is checked on every request; failures
 * are never cached.
 */
export function tokenVerifier(
  db: Sqlite,
  contract: Contract,
): (accessToken: string, appKey: string | null) => Principal {
  const findToken = db.prepare<[string, string], TokenRow>(FIND_TOKEN_SQL);
  const findAppKeyHash = db.prepare<[number, number], string>(FIND_APP_KEY_HASH_SQL).pluck();
  const readRevision = db.prepare<[], number>(CREDENTIALS_REVISION_SQL).pluck();
  const verified = new VerifiedTokens(contract);

  return (accessToken, appKey) => {
    const now = Date.now();
    const revision = contract === 'same' ? Number(readRevision.get()) : undefined;
    const cacheKey = `${accessToken} ${appKey ?? ''}`;
    const cached = verified.lookup(cacheKey, now, revision);
    if (cached) return cached;
    const hash = sha256(accessToken);
    const token = findToken.get(hash, hash);
    const appKeyHash = token ? findAppKeyHash.get(token.brand_id, token.app_id) : undefined;
    const principal = checkStoredToken(token, appKeyHash, appKey, now);
    verified.keep(cacheKey, now, revision, principal, token!.expires_at);
    return principal;
  };
}

const PRINCIPAL = 'principal';

export function principalOf(res: Response): Principal | null {
  return (res.locals[PRINCIPAL] as Principal | undefined) ?? null;
}

/** Resolves the principal of a /v10 request (token and the X-Service-App-Key of its app) or answers 401. */
export function authenticate(
  verify: (accessToken: string, appKey: string | null) => Principal | Promise<Principal>,
): RequestHandler {
  return (req, res, next) => {
    const principal = verify(presentedToken(req), req.get('X-Service-App-Key') ?? null);
    if (!(principal instanceof Promise)) {
      res.locals[PRINCIPAL] = principal;
      next();
      return;
    }
    principal.then((p) => {
      res.locals[PRINCIPAL] = p;
      next();
    }, next);
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
