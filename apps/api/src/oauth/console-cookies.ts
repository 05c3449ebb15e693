import { Request, Response } from 'express';

/** The cookies of the browser pages (OAuth login and consent, later the console), by base name. */
export const CONSOLE_COOKIES = {
  /** The console session: `<brandId>.<secret>` (`startConsoleSession`). */
  session: 'session',
  /** The login form's CSRF token before any session exists (double submit). */
  loginCsrf: 'login_csrf',
} as const;

/**
 * The name a cookie has on this request: over TLS (`req.secure`, which honours Express's `trust
 * proxy` setting for a proxy's X-Forwarded-Proto) it is Secure and carries the `__Host-` prefix,
 * so the browser refuses it unless it is Secure, host-only and Path=/: a sibling subdomain cannot
 * plant or overwrite it. Plain http (a developer's machine) cannot use the prefix.
 */
function cookieName(req: Request, base: string): string {
  return req.secure ? `__Host-${base}` : base;
}

/** The value of the request's cookie `base` (by its name on this request), or null. */
export function readCookie(req: Request, base: string): string | null {
  const name = cookieName(req, base);
  for (const pair of (req.get('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Sets a session-lifetime cookie (no Max-Age: the server decides when a session ends): HttpOnly,
 * SameSite=Lax (sent on the top-level navigation back from a client, not on cross-site posts),
 * Path=/, Secure over TLS.
 */
export function setCookie(req: Request, res: Response, base: string, value: string): void {
  res.cookie(cookieName(req, base), value, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure });
}

export function clearCookie(req: Request, res: Response, base: string): void {
  res.clearCookie(cookieName(req, base), { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure });
}
