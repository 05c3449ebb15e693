import { Response, Router } from 'express';
import { isDomainError, isScope, issueAccessToken, listConsoleAccessTokens, revokeAccessToken } from '@brand/core';
import { BrowserSession } from '../browser/browser-sessions';
import { seeOther, sendPage } from '../browser/html-page';
import { ConsoleKit, positiveInteger, repeatedField } from './console-context';
import { consoleTokensPage } from './tokens.pages';

/** The longest a personal access token may be issued for from the console: ten years. */
const MAX_EXPIRY_DAYS = 3650;
const SECONDS_PER_DAY = 24 * 60 * 60;

/**
 * The logged-in user's personal access tokens: list, issue (the token shown once, on the answer
 * page only) and revoke. Another user's or brand's token is a 404 page and nothing changes.
 */
export function tokenRoutes(kit: ConsoleKit, router: Router): void {
  const { deps } = kit;
  const noSuchToken = (res: Response) => kit.notFound(res, 'There is no such token among yours.');

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

  router.get('/console/tokens', ...kit.page((_req, res, session) => showTokens(res, session)));

  router.post(
    '/console/tokens',
    ...kit.action(async (_req, res, session, form) => {
      const appId = positiveInteger(form['app_id']);
      if (appId === null) return showTokens(res, session, 400, { error: 'app_id: choose one of the apps.' });
      const ticked = repeatedField(form, 'scope');
      const scopes = ticked.filter((s): s is string => typeof s === 'string' && isScope(s));
      if (scopes.length === 0 || scopes.length !== ticked.length)
        return showTokens(res, session, 400, { error: 'scope: tick at least one permission.' });
      const days = positiveInteger(form['expires_in_days']);
      if (days === null || days > MAX_EXPIRY_DAYS)
        return showTokens(res, session, 400, {
          error: `expires_in_days: must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS}.`,
        });
      // Read within the session's brand: another brand's app is missing, tenants never see each other.
      const app = await deps.uow.read((r) => r.apiApps.findById(session.user.brandId, appId));
      if (!app) return kit.notFound(res, 'There is no such app in your brand.');
      const { accessToken } = await issueAccessToken(deps, {
        brandId: session.user.brandId,
        userId: session.user.id,
        appId: app.id,
        scopes,
        expiresInSeconds: days * SECONDS_PER_DAY,
      });
      // The answer page itself shows the token: it is never stored where a later page could show it again.
      await showTokens(res, session, 201, { issued: { accessToken, appName: app.name } });
    }),
  );

  router.post(
    '/console/tokens/:id/revoke',
    ...kit.action(async (req, res, session) => {
      const tokenId = positiveInteger(req.params['id']);
      if (tokenId === null) return noSuchToken(res);
      try {
        await revokeAccessToken(deps, {
          tokenId,
          ownedBy: { brandId: session.user.brandId, userId: session.user.id },
        });
      } catch (error) {
        if (isDomainError(error) && error.code === 'not_found') return noSuchToken(res);
        throw error;
      }
      seeOther(res, '/console/tokens');
    }),
  );
}
