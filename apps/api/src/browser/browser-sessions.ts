import { Request, Response } from 'express';
import { Clock, Repositories, SecretHasher, UnitOfWork, User, resolveConsoleSession } from '@brand/core';
import { CONSOLE_COOKIES, readCookie, setCookie } from '../oauth/console-cookies';

/** A request's console session: the user, the session's CSRF token and the cookie value it came with. */
export interface BrowserSession {
  user: User;
  csrfToken: string;
  cookieValue: string;
}

/**
 * The session and CSRF helpers every server-rendered page shares (the OAuth pages, the console):
 * the session a request's cookie stands for, with its CSRF token, and the login form's token.
 */
export function browserSessions(deps: { uow: UnitOfWork<Repositories>; clock: Clock; hasher: SecretHasher }) {
  /** The session's CSRF token: derived from the cookie's secret, so only a page that was sent the cookie can know it. */
  const sessionCsrfToken = (cookieValue: string): string => deps.hasher.hash(`csrf:${cookieValue}`);

  return {
    /** The session the request's cookie stands for, or null. */
    sessionOf: async (req: Request): Promise<BrowserSession | null> => {
      const cookieValue = readCookie(req, CONSOLE_COOKIES.session);
      if (cookieValue === null) return null;
      const resolved = await resolveConsoleSession(deps, { cookieValue });
      return resolved ? { user: resolved.user, csrfToken: sessionCsrfToken(cookieValue), cookieValue } : null;
    },

    /** The login form's token: a random value in a cookie of its own that the form must echo (double submit). */
    loginCsrfToken: (req: Request, res: Response): string => {
      const existing = readCookie(req, CONSOLE_COOKIES.loginCsrf);
      if (existing !== null && /^[A-Za-z0-9_-]{32,100}$/.test(existing)) return existing;
      const token = deps.hasher.randomSecret();
      setCookie(req, res, CONSOLE_COOKIES.loginCsrf, token);
      return token;
    },
  };
}
