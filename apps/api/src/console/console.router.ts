import express, { Request, RequestHandler, Response, Router } from 'express';
import {
  Clock,
  PasswordHasher,
  Repositories,
  SecretHasher,
  UnitOfWork,
  endConsoleSession,
  isDomainError,
  isScope,
  issueAccessToken,
  listConsoleAccessTokens,
  revokeAccessToken,
} from '@brand/core';
import { BrowserSession, browserSessions, logInFromForm, startBrowserSession } from '../browser/browser-sessions';
import { messagePage, sameSecret, seeOther, sendPage } from '../browser/html-page';
import { pageErrorHandler } from '../browser/page-errors';
import { MAINTENANCE_RETRY_AFTER_SECONDS } from '../http/maintenance';
import { CONSOLE_COOKIES, clearCookie, readCookie } from '../oauth/console-cookies';
import { consoleLoginPage, consoleTokensPage } from './console-pages';

export interface ConsoleRouterDeps {
  uow: UnitOfWork<Repositories>;
  clock: Clock;
  hasher: SecretHasher;
  passwordHasher: PasswordHasher;
  maintenanceMode: boolean;
}

/** The forms hold a handful of short fields and a dozen scope checkboxes; anything larger is not one of them. */
const FORM_BODY_LIMIT = '16kb';
/** The longest a personal access token may be issued for from the console: ten years. */
const MAX_EXPIRY_DAYS = 3650;
const SECONDS_PER_DAY = 24 * 60 * 60;

/**
 * The console (DESIGN §11), server-rendered under `/console`: log in and out, and the logged-in
 * user's personal access tokens (list, issue: shown once, revoke). It shares the OAuth pages'
 * session cookie, CSRF tokens, page layout and HTML error pages. Every page and action is scoped to
 * the session's brand and user: another's token is a 404 page and nothing changes.
 */
export function consoleRouter(deps: ConsoleRouterDeps): Router {
  const router = Router();
  const formBody = express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 50 });
  const { sessionOf, loginCsrfToken } = browserSessions(deps);

  const maintenance: RequestHandler = (_req, res, next) => {
    if (!deps.maintenanceMode) return next();
    sendPage(res, 503, messagePage('Temporarily unavailable', 'The service is in maintenance; try again shortly.'), {
      'Retry-After': String(MAINTENANCE_RETRY_AFTER_SECONDS),
    });
  };

  const forgedForm = (res: Response) =>
    sendPage(
      res,
      403,
      messagePage(
        'The form has expired',
        'This form could not be verified (its security token is missing or wrong). Go back, reload the page and try again.',
      ),
    );

  const notFound = (res: Response) =>
    sendPage(res, 404, messagePage('Not found', 'There is no such token among yours.'));

  /** The session of a form post whose CSRF token matches it, or null (and a 403 page sent). */
  async function verifiedSession(req: Request, res: Response): Promise<BrowserSession | null> {
    const session = await sessionOf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!session || !sameSecret(body['csrf_token'], session.csrfToken)) {
      forgedForm(res);
      return null;
    }
    return session;
  }

  async function showTokens(
    res: Response,
    session: BrowserSession,
    status = 200,
    extra: { issued?: { accessToken: string; appName: string }; error?: string } = {},
  ): Promise<void> {
    const { user } = session;
    const { tokens, apps } = await listConsoleAccessTokens(deps, { brandId: user.brandId, userId: user.id });
    sendPage(
      res,
      status,
      consoleTokensPage({ user, tokens, apps, csrfToken: session.csrfToken, now: deps.clock.now(), ...extra }),
    );
  }

  router.get('/console', maintenance, async (req, res, next) => {
    try {
      seeOther(res, (await sessionOf(req)) ? '/console/tokens' : '/console/login');
    } catch (error) {
      next(error);
    }
  });

  router.get('/console/login', maintenance, async (req, res, next) => {
    try {
      if (await sessionOf(req)) return seeOther(res, '/console/tokens');
      sendPage(res, 200, consoleLoginPage({ csrfToken: loginCsrfToken(req, res) }));
    } catch (error) {
      next(error);
    }
  });

  router.post('/console/login', maintenance, formBody, async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      // Nothing is checked, counted or changed before the token is (login CSRF).
      if (!sameSecret(body['csrf_token'], readCookie(req, CONSOLE_COOKIES.loginCsrf))) return forgedForm(res);
      const email = typeof body['email'] === 'string' ? body['email'] : '';
      const password = typeof body['password'] === 'string' ? body['password'] : '';
      const again = (status: number, message: string, headers: Record<string, string> = {}) =>
        sendPage(
          res,
          status,
          consoleLoginPage({ csrfToken: loginCsrfToken(req, res), email, error: message }),
          headers,
        );
      const user = await logInFromForm(deps, req, { email, password }, again);
      if (!user) return;
      await startBrowserSession(deps, req, res, user);
      seeOther(res, '/console/tokens');
    } catch (error) {
      next(error);
    }
  });

  router.post('/console/logout', maintenance, formBody, async (req, res, next) => {
    try {
      const session = await verifiedSession(req, res);
      if (!session) return;
      await endConsoleSession(deps, { cookieValue: session.cookieValue });
      clearCookie(req, res, CONSOLE_COOKIES.session);
      seeOther(res, '/console/login');
    } catch (error) {
      next(error);
    }
  });

  router.get('/console/tokens', maintenance, async (req, res, next) => {
    try {
      const session = await sessionOf(req);
      if (!session) return seeOther(res, '/console/login');
      await showTokens(res, session);
    } catch (error) {
      next(error);
    }
  });

  router.post('/console/tokens', maintenance, formBody, async (req, res, next) => {
    try {
      const session = await verifiedSession(req, res);
      if (!session) return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const appId = positiveInteger(body['app_id']);
      if (appId === null) return await showTokens(res, session, 400, { error: 'app_id: choose one of the apps.' });
      const ticked = body['scope'] === undefined ? [] : ([] as unknown[]).concat(body['scope']);
      const scopes = ticked.filter((s): s is string => typeof s === 'string' && isScope(s));
      if (scopes.length === 0 || scopes.length !== ticked.length)
        return await showTokens(res, session, 400, { error: 'scope: tick at least one permission.' });
      const days = positiveInteger(body['expires_in_days']);
      if (days === null || days > MAX_EXPIRY_DAYS)
        return await showTokens(res, session, 400, {
          error: `expires_in_days: must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS}.`,
        });
      const app = await deps.uow.read((r) => r.apiApps.findById(appId));
      // Another brand's app is treated as missing: tenants never see each other.
      if (!app || app.brandId !== session.user.brandId)
        return sendPage(res, 404, messagePage('Not found', 'There is no such app in your brand.'));
      const { accessToken } = await issueAccessToken(deps, {
        userId: session.user.id,
        appId: app.id,
        scopes,
        expiresInSeconds: days * SECONDS_PER_DAY,
      });
      // The answer page itself shows the token: it is never stored where a later page could show it again.
      await showTokens(res, session, 201, { issued: { accessToken, appName: app.name } });
    } catch (error) {
      next(error);
    }
  });

  router.post('/console/tokens/:id/revoke', maintenance, formBody, async (req, res, next) => {
    try {
      const session = await verifiedSession(req, res);
      if (!session) return;
      const tokenId = positiveInteger(req.params['id']);
      if (tokenId === null) return notFound(res);
      try {
        await revokeAccessToken(deps, {
          tokenId,
          ownedBy: { brandId: session.user.brandId, userId: session.user.id },
        });
      } catch (error) {
        if (isDomainError(error) && error.code === 'not_found') return notFound(res);
        throw error;
      }
      seeOther(res, '/console/tokens');
    } catch (error) {
      next(error);
    }
  });

  router.use('/console', pageErrorHandler());
  return router;
}

/** A form field or path segment that is a positive whole number (digits only), or null. */
function positiveInteger(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}
