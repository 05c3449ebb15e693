import { Scope } from './scopes';

/** The owning company (the spec's "entity"): every other row belongs to exactly one brand. */
export interface Brand {
  id: number;
  name: string;
  /** ISO 4217 base currency. */
  currency: string;
  createdAt: string;
  updatedAt: string;
}

/** A person acting for a brand; tokens are issued to users and requests are recorded on them. */
export interface User {
  id: number;
  brandId: number;
  email: string;
  name: string;
  createdAt: string;
}

/**
 * A user who can log in, with the stored hash of their password. Kept apart from `User` so that
 * the hash travels only where a password is checked, never into what is shown or printed.
 */
export interface UserCredentials {
  user: User;
  /** The self-describing hash `PasswordHasher.hash` made (`scrypt$N$r$p$salt$hash`). */
  passwordHash: string;
}

/**
 * A registered integration. Its secret app key is shown once and stored only as a hash. It is also
 * an OAuth 2.0 client (DESIGN §11): `clientId` is its public `client_id`, the app key its
 * `client_secret`.
 */
export interface ApiApp {
  id: number;
  brandId: number;
  /** The public OAuth `client_id`: `app_` and 24 URL-safe random characters, unique across brands. */
  clientId: string;
  name: string;
  appKeyHash: string;
  /** Names the partner portal type this app may act as (external return portals). */
  internalCode: string | null;
  createdAt: string;
}

/** An app as an OAuth client: the app and the redirect URIs registered for it, in registration order. */
export interface OAuthClient {
  app: ApiApp;
  redirectUris: string[];
}

/** An opaque bearer token issued to one user for one app; stored only as its SHA-256 hash. */
export interface AccessToken {
  id: number;
  brandId: number;
  userId: number;
  appId: number;
  tokenHash: string;
  scopes: Scope[];
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
}

/** One authenticated request, recorded on the token's user. */
export interface RequestLogEntry {
  brandId: number;
  userId: number;
  appId: number;
  tokenId: number;
  method: string;
  path: string;
  /**
   * The template of the route that answered (`/v10/orders/:id`), never the raw path: requests of
   * one route group together (the console's slowest routes). Null for requests recorded before
   * the log kept it.
   */
  route: string | null;
  status: number;
  durationMs: number;
  requestId: string;
  /**
   * The OpenTelemetry trace the request was answered in (32 hex digits), to find its spans; null
   * while tracing is off and for requests recorded before the log kept it.
   */
  traceId: string | null;
  createdAt: string;
}

/** A request as the log stored it: the entry and its id, which orders entries of one instant. */
export interface RecordedRequest extends RequestLogEntry {
  id: number;
}

/**
 * How long recorded requests stay in the request log unless the caller says otherwise (the API's
 * `REQUEST_LOG_RETENTION_DAYS`): the console shows the latest requests, and a month covers the
 * questions an integrator asks about last week's failures.
 */
export const REQUEST_LOG_RETENTION_DAYS = 30;

/** Where a page of the request log stops: its oldest entry's time and id (the next page is older). */
export interface RequestLogPosition {
  createdAt: string;
  id: number;
}

/** Who is acting: resolved from a verified token and passed to every use case. */
export interface Principal {
  brandId: number;
  userId: number;
  appId: number;
  tokenId: number;
  scopes: Scope[];
  appInternalCode: string | null;
}
