/** How long a console session lasts without a request: 12 hours. */
export const CONSOLE_SESSION_IDLE_SECONDS = 12 * 60 * 60;
/** How long a console session lasts at most, however busy: 7 days, then the user logs in again. */
export const CONSOLE_SESSION_ABSOLUTE_SECONDS = 7 * 24 * 60 * 60;

/**
 * A logged-in user's session in the browser (the OAuth login and consent pages, the console).
 * The cookie holds `<brandId>.<secret>` (see `consoleSessionCookieValue`); storage keeps only the
 * secret's hash, so a copy of the database logs nobody in.
 */
export interface ConsoleSession {
  brandId: number;
  id: number;
  userId: number;
  /** The hash (`SecretHasher.hash`) of the secret the cookie carries. */
  secretHash: string;
  createdAt: string;
  /** The last request seen with the session; it ends `CONSOLE_SESSION_IDLE_SECONDS` after. */
  lastSeenAt: string;
  /** The absolute end: `createdAt` + `CONSOLE_SESSION_ABSOLUTE_SECONDS`. */
  expiresAt: string;
}

/** The cookie value of a session: the brand (not secret: it only says where to look) and the secret. */
export function consoleSessionCookieValue(brandId: number, secret: string): string {
  return `${brandId}.${secret}`;
}

/**
 * The brand and secret a cookie value names, or null when it is not one. The brand travels in the
 * cookie because every key leads with brand_id (DESIGN §9): the lookup names the brand first.
 */
export function parseConsoleSessionCookie(value: string): { brandId: number; secret: string } | null {
  const match = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{16,200})$/.exec(value);
  if (!match) return null;
  const brandId = Number(match[1]);
  return Number.isSafeInteger(brandId) ? { brandId, secret: match[2]! } : null;
}

/** Whether the session is over at `now`: idle too long, or past its absolute end. */
export function consoleSessionEnded(session: ConsoleSession, now: string): boolean {
  const idleEnd = new Date(Date.parse(session.lastSeenAt) + CONSOLE_SESSION_IDLE_SECONDS * 1000).toISOString();
  return now >= session.expiresAt || now >= idleEnd;
}
