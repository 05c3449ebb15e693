import express, { RequestHandler, Response, Router } from 'express';
import {
  Clock,
  PasswordHasher,
  Repositories,
  SecretHasher,
  UnitOfWork,
  User,
  endConsoleSession,
  findOAuthClient,
  isScope,
  issueAuthorizationCode,
} from '@brand/core';
import { browserSessions, logInFromForm, startBrowserSession } from '../browser/browser-sessions';
import { sameSecret, sendPage } from '../browser/html-page';
import { pageErrorHandler } from '../browser/page-errors';
import { MAINTENANCE_RETRY_AFTER_SECONDS } from '../http/maintenance';
import { AuthorizationRequest, checkAuthorizationRequest, redirectWith } from './authorization-request';
import { consentPage, errorPage, loginPage } from './authorize.pages';
import { CONSOLE_COOKIES, clearCookie, readCookie } from './console-cookies';

export interface AuthorizeRouterDeps {
  uow: UnitOfWork<Repositories>;
  clock: Clock;
  hasher: SecretHasher;
  passwordHasher: PasswordHasher;
  maintenanceMode: boolean;
}

/** The forms hold a dozen short fields; anything larger is not one of them. */
const FORM_BODY_LIMIT = '16kb';

/**
 * The browser half of OAuth 2.0 (DESIGN §11): `GET /oauth/authorize` shows the login page without
 * a console session and the consent page with one; `POST /oauth/login` logs in (starting the
 * session), `POST /oauth/authorize` takes the decision, `POST /oauth/logout` ends the session.
 * Its own pipeline: form bodies, server-rendered pages, errors as HTML pages (a database outage a
 * 503 page), and a CSRF token checked on every form before anything changes.
 */
export function authorizeRouter(deps: AuthorizeRouterDeps): Router {
  const router = Router();
  const formBody = express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 50 });

  const maintenance: RequestHandler = (_req, res, next) => {
    if (!deps.maintenanceMode) return next();
    sendPage(res, 503, errorPage('Temporarily unavailable', 'The service is in maintenance; try again shortly.'), {
      'Retry-After': String(MAINTENANCE_RETRY_AFTER_SECONDS),
    });
  };

  const findClient = (clientId: string) => findOAuthClient(deps, { clientId });

  const { sessionOf, loginCsrfToken } = browserSessions(deps);

  /** Answers a request that is not valid (a page, or a redirect to the client) and returns null, or the request. */
  async function checkedRequest(res: Response, params: Record<string, unknown>): Promise<AuthorizationRequest | null> {
    const checked = await checkAuthorizationRequest(params, findClient);
    switch (checked.kind) {
      case 'valid':
        return checked.request;
      case 'untrusted':
        sendPage(res, 400, errorPage('This link cannot be used', checked.message));
        return null;
      case 'redirect_error':
        res
          .status(302)
          .set('Cache-Control', 'no-store')
          .location(
            redirectWith(checked.redirectUri, {
              error: checked.error,
              error_description: checked.description,
              state: checked.state,
            }),
          )
          .end();
        return null;
    }
  }

  const otherBrandPage = (res: Response, request: AuthorizationRequest, csrfToken?: string) =>
    sendPage(
      res,
      403,
      errorPage(
        'Another brand’s app',
        `${request.client.app.name} belongs to another brand than your account; log in with an account of its brand to allow it.`,
        csrfToken ? { request: request.carried, csrfToken } : undefined,
      ),
    );

  async function showConsent(
    res: Response,
    request: AuthorizationRequest,
    session: { user: User; csrfToken: string },
    status = 200,
    error: string | null = null,
  ): Promise<void> {
    if (session.user.brandId !== request.client.app.brandId) return otherBrandPage(res, request, session.csrfToken);
    const brand = await deps.uow.read((r) => r.brands.findById(request.client.app.brandId));
    sendPage(
      res,
      status,
      consentPage({
        appName: request.client.app.name,
        brandName: brand?.name ?? '',
        userName: session.user.name,
        scopes: request.scopes,
        request: request.carried,
        csrfToken: session.csrfToken,
        error,
      }),
    );
  }

  const forgedForm = (res: Response) =>
    sendPage(
      res,
      403,
      errorPage(
        'The form has expired',
        'This form could not be verified (its security token is missing or wrong). Go back to the app and start again.',
      ),
    );

  router.get('/oauth/authorize', maintenance, async (req, res, next) => {
    try {
      const request = await checkedRequest(res, req.query);
      if (!request) return;
      const session = await sessionOf(req);
      if (session) return await showConsent(res, request, session);
      sendPage(
        res,
        200,
        loginPage({ appName: request.client.app.name, request: request.carried, csrfToken: loginCsrfToken(req, res) }),
      );
    } catch (error) {
      next(error);
    }
  });

  router.post('/oauth/login', maintenance, formBody, async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      // Nothing is checked, counted or changed before the token is: a forged log-in (login CSRF)
      // could otherwise put the victim's browser into the attacker's account.
      if (!sameSecret(body['csrf_token'], readCookie(req, CONSOLE_COOKIES.loginCsrf))) return forgedForm(res);
      const request = await checkedRequest(res, body);
      if (!request) return;
      const email = typeof body['email'] === 'string' ? body['email'] : '';
      const password = typeof body['password'] === 'string' ? body['password'] : '';
      const again = (status: number, message: string, headers: Record<string, string> = {}) =>
        sendPage(
          res,
          status,
          loginPage({
            appName: request.client.app.name,
            request: request.carried,
            csrfToken: loginCsrfToken(req, res),
            email,
            error: message,
          }),
          headers,
        );
      const user = await logInFromForm(deps, req, { email, password }, again);
      if (!user) return;
      if (user.brandId !== request.client.app.brandId) return otherBrandPage(res, request);
      await startBrowserSession(deps, req, res, user);
      // Post/redirect/get: the consent page is the authorize URL again, now with a session.
      res
        .status(303)
        .set('Cache-Control', 'no-store')
        .location(`/oauth/authorize?${carriedQuery(request)}`)
        .end();
    } catch (error) {
      next(error);
    }
  });

  router.post('/oauth/authorize', maintenance, formBody, async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const session = await sessionOf(req);
      if (!session || !sameSecret(body['csrf_token'], session.csrfToken)) return forgedForm(res);
      // The scopes come from the checkboxes, so the request is checked without a `scope` of its own.
      const request = await checkedRequest(res, { ...body, scope: undefined });
      if (!request) return;
      if (session.user.brandId !== request.client.app.brandId) return otherBrandPage(res, request, session.csrfToken);
      const decision = body['decision'];
      if (decision === 'deny')
        return redirectTo(res, redirectWith(request.redirectUri, { error: 'access_denied', state: request.state }));
      if (decision !== 'allow')
        return sendPage(res, 400, errorPage('Unknown decision', 'Choose Allow or Deny on the consent page.'));
      const ticked = body['scope'] === undefined ? [] : ([] as unknown[]).concat(body['scope']);
      const scopes = ticked.filter((s): s is string => typeof s === 'string' && isScope(s));
      if (scopes.length === 0 || scopes.length !== ticked.length)
        return await showConsent(res, request, session, 400, 'Tick at least one permission, or deny the request.');
      const { code } = await issueAuthorizationCode(deps, {
        brandId: session.user.brandId,
        userId: session.user.id,
        appId: request.client.app.id,
        redirectUri: request.redirectUri,
        scopes,
        codeChallenge: request.codeChallenge,
        codeChallengeMethod: 'S256',
      });
      redirectTo(res, redirectWith(request.redirectUri, { code, state: request.state }));
    } catch (error) {
      next(error);
    }
  });

  router.post('/oauth/logout', maintenance, formBody, async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const session = await sessionOf(req);
      if (!session || !sameSecret(body['csrf_token'], session.csrfToken)) return forgedForm(res);
      await endConsoleSession(deps, { cookieValue: session.cookieValue });
      clearCookie(req, res, CONSOLE_COOKIES.session);
      const request = await checkedRequest(res, body);
      if (!request) return;
      res
        .status(303)
        .set('Cache-Control', 'no-store')
        .location(`/oauth/authorize?${carriedQuery(request)}`)
        .end();
    } catch (error) {
      next(error);
    }
  });

  router.use(['/oauth/authorize', '/oauth/login', '/oauth/logout'], pageErrorHandler());
  return router;
}

function redirectTo(res: Response, location: string): void {
  res.status(302).set('Cache-Control', 'no-store').location(location).end();
}

function carriedQuery(request: AuthorizationRequest): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.carried)) if (value !== '') params.append(name, value);
  return params.toString();
}
