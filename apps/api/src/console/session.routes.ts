import { Router } from 'express';
import { endConsoleSession } from '@brand/core';
import { logInFromForm, startBrowserSession } from '../browser/browser-sessions';
import { sameSecret, seeOther, sendPage } from '../browser/html-page';
import { CONSOLE_COOKIES, clearCookie, readCookie } from '../oauth/console-cookies';
import { ConsoleKit, textField } from './console-context';
import { consoleLoginPage } from './console-layout';

/** Where a logged-in user lands: the console's home. */
export const CONSOLE_HOME = '/console/tokens';

/** `/console`, the login page and form, and logging out. */
export function sessionRoutes(kit: ConsoleKit, router: Router): void {
  router.get(
    '/console',
    ...kit.open(async (req, res) => seeOther(res, (await kit.sessionOf(req)) ? CONSOLE_HOME : '/console/login')),
  );

  router.get(
    '/console/login',
    ...kit.open(async (req, res) => {
      if (await kit.sessionOf(req)) return seeOther(res, CONSOLE_HOME);
      sendPage(res, 200, consoleLoginPage({ csrfToken: kit.loginCsrfToken(req, res) }));
    }),
  );

  router.post(
    '/console/login',
    ...kit.openForm(async (req, res) => {
      const form = (req.body ?? {}) as Record<string, unknown>;
      // Nothing is checked, counted or changed before the token is (login CSRF).
      if (!sameSecret(form['csrf_token'], readCookie(req, CONSOLE_COOKIES.loginCsrf))) return kit.forgedForm(res);
      const email = textField(form, 'email');
      const password = textField(form, 'password');
      const again = (status: number, message: string, headers: Record<string, string> = {}) =>
        sendPage(
          res,
          status,
          consoleLoginPage({ csrfToken: kit.loginCsrfToken(req, res), email, error: message }),
          headers,
        );
      const user = await logInFromForm(kit.deps, req, { email, password }, again);
      if (!user) return;
      await startBrowserSession(kit.deps, req, res, user);
      seeOther(res, CONSOLE_HOME);
    }),
  );

  router.post(
    '/console/logout',
    ...kit.action(async (req, res, session) => {
      await endConsoleSession(kit.deps, { cookieValue: session.cookieValue });
      clearCookie(req, res, CONSOLE_COOKIES.session);
      seeOther(res, '/console/login');
    }),
  );
}
