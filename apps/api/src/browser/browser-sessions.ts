import { Request, Response } from 'express';
import {
  Clock,
  PasswordHasher,
  Repositories,
  SecretHasher,
  UnitOfWork,
  User,
  isDomainError,
  logIn,
  resolveConsoleSession,
  startConsoleSession,
} from '@brand/core';
import { CONSOLE_COOKIES, clearCookie, readCookie, setCookie } from '../oauth/console-cookies';

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

/** Redraws a login form after a refused attempt: its status, the message, and headers (Retry-After). */
export type RedrawLoginForm = (status: number, message: string, headers?: Record<string, string>) => void;

/**
 * Logs in with a login form's `email` and `password` (the OAuth and console login pages share
 * it). A refusal redraws the form through `redraw`, 401 for wrong credentials and 429 with
 * Retry-After while throttled, and gives null; anything else is thrown.
 */
export async function logInFromForm(
  deps: { uow: UnitOfWork<Repositories>; clock: Clock; passwordHasher: PasswordHasher },
  req: Request,
  credentials: { email: string; password: string },
  redraw: RedrawLoginForm,
): Promise<User | null> {
  try {
    return await logIn(deps, { ...credentials, clientAddress: req.ip ?? 'unknown' });
  } catch (error) {
    if (isDomainError(error) && error.code === 'invalid_credentials') redraw(401, error.message);
    else if (isDomainError(error) && error.code === 'too_many_login_attempts')
      redraw(429, error.message, { 'Retry-After': String(error.data['retry_after_seconds']) });
    else throw error;
    return null;
  }
}

/** Starts a console session for a user who just logged in: its cookie set, the login form's CSRF cookie spent. */
export async function startBrowserSession(
  deps: { uow: UnitOfWork<Repositories>; clock: Clock; hasher: SecretHasher },
  req: Request,
  res: Response,
  user: User,
): Promise<void> {
  const { cookieValue } = await startConsoleSession(deps, { brandId: user.brandId, userId: user.id });
  setCookie(req, res, CONSOLE_COOKIES.session, cookieValue);
  clearCookie(req, res, CONSOLE_COOKIES.loginCsrf);
}
