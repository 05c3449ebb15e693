import { Request, Response, Router } from 'express';
import {
  ApiApp,
  DomainError,
  createApiApp,
  findApiApp,
  isDomainError,
  listApiApps,
  rotateApiAppKey,
  setRedirectUris,
} from '@brand/core';
import { BrowserSession } from '../browser/browser-sessions';
import { seeOther, sendPage } from '../browser/html-page';
import { ConsoleKit, FormFields, positiveInteger, repeatedField, textField } from './console-context';
import { AppDraft, consoleAppPage, consoleAppsPage, consoleRotateKeyPage } from './apps.pages';

/**
 * The redirect URIs of a form: the textarea's lines (or several inputs of that name), trimmed,
 * blank lines dropped. Their order is kept: the core's rules name a refused one by its position.
 */
function redirectUrisOf(form: FormFields): string[] {
  return repeatedField(form, 'redirect_uris')
    .filter((value): value is string => typeof value === 'string')
    .flatMap((value) => value.split(/\r?\n/))
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The message of a refused form: every violation, naming its field. A refused redirect URI is
 * named by its text rather than `redirect_uris[2]`: the position counts only non-blank lines, so
 * the URI itself is what the user can find in the textarea.
 */
function problemsOf(error: DomainError, redirectUris: readonly string[]): string {
  return error.violations
    .map(({ pointer, detail }) => {
      const refusedUri = /^\/redirect_uris\/(\d+)$/.exec(pointer);
      const uri = refusedUri ? redirectUris[Number(refusedUri[1])] : undefined;
      return uri === undefined ? detail : `redirect_uris: ${uri} ${detail.replace(/^redirect_uris\[\d+\] /, '')}`;
    })
    .join('; ');
}

const isValidationFailure = (error: unknown): error is DomainError =>
  isDomainError(error) && error.code === 'validation_failed';

/**
 * The brand's apps: list and create (the key shown once, on the answer page only), and each app's
 * page: replace its redirect URIs, rotate its key (after a confirmation; the new key shown once,
 * the old one refused at once on every process). Another brand's app is a 404 page and nothing
 * changes. Every user of the brand may do all of it (there are no roles yet).
 */
export function appRoutes(kit: ConsoleKit, router: Router): void {
  const { deps } = kit;
  const noSuchApp = (res: Response) => kit.notFound(res, 'There is no such app in your brand.');

  async function showApps(
    res: Response,
    session: BrowserSession,
    status = 200,
    extra: { created?: { app: ApiApp; appKey: string }; error?: string; draft?: AppDraft } = {},
  ): Promise<void> {
    const apps = await listApiApps(deps, { brandId: session.user.brandId });
    sendPage(res, status, consoleAppsPage({ user: session.user, csrfToken: session.csrfToken, apps, ...extra }));
  }

  /** The session's brand's app named by the path, or null (unknown, malformed or another brand's). */
  async function appOf(req: Request, session: BrowserSession) {
    const appId = positiveInteger(req.params['id']);
    return appId === null ? null : findApiApp(deps, { brandId: session.user.brandId, appId });
  }

  router.get('/console/apps', ...kit.page((_req, res, session) => showApps(res, session)));

  router.post(
    '/console/apps',
    ...kit.action(async (_req, res, session, form) => {
      const draft: AppDraft = {
        name: textField(form, 'name'),
        internalCode: textField(form, 'internal_code').trim(),
        redirectUris: redirectUrisOf(form),
      };
      try {
        const { app, appKey } = await createApiApp(deps, {
          brandId: session.user.brandId,
          name: draft.name,
          internalCode: draft.internalCode === '' ? null : draft.internalCode,
          redirectUris: draft.redirectUris,
        });
        // The answer page itself shows the key: only its hash is stored, so no later page can.
        await showApps(res, session, 201, { created: { app, appKey } });
      } catch (error) {
        if (!isValidationFailure(error)) throw error;
        await showApps(res, session, 400, { error: problemsOf(error, draft.redirectUris), draft });
      }
    }),
  );

  router.get(
    '/console/apps/:id',
    ...kit.page(async (req, res, session) => {
      const client = await appOf(req, session);
      if (!client) return noSuchApp(res);
      sendPage(res, 200, consoleAppPage({ user: session.user, csrfToken: session.csrfToken, client }));
    }),
  );

  router.post(
    '/console/apps/:id/redirect-uris',
    ...kit.action(async (req, res, session, form) => {
      const client = await appOf(req, session);
      if (!client) return noSuchApp(res);
      const redirectUris = redirectUrisOf(form);
      try {
        await setRedirectUris(deps, { brandId: session.user.brandId, appId: client.app.id, redirectUris });
      } catch (error) {
        if (!isValidationFailure(error)) throw error;
        return sendPage(
          res,
          400,
          consoleAppPage({
            user: session.user,
            csrfToken: session.csrfToken,
            client,
            error: problemsOf(error, redirectUris),
            draftRedirectUris: redirectUris,
          }),
        );
      }
      seeOther(res, `/console/apps/${client.app.id}`);
    }),
  );

  router.get(
    '/console/apps/:id/rotate-key',
    ...kit.page(async (req, res, session) => {
      const client = await appOf(req, session);
      if (!client) return noSuchApp(res);
      sendPage(res, 200, consoleRotateKeyPage({ user: session.user, csrfToken: session.csrfToken, app: client.app }));
    }),
  );

  router.post(
    '/console/apps/:id/rotate-key',
    ...kit.action(async (req, res, session) => {
      const client = await appOf(req, session);
      if (!client) return noSuchApp(res);
      let appKey: string;
      try {
        ({ appKey } = await rotateApiAppKey(deps, { brandId: session.user.brandId, appId: client.app.id }));
      } catch (error) {
        // Gone between the read and the rotation: as missing as it would have been a moment later.
        if (isDomainError(error) && error.code === 'not_found') return noSuchApp(res);
        throw error;
      }
      // Shown on this answer only, like a new app's key: the page is never cached (PAGE_HEADERS).
      sendPage(
        res,
        200,
        consoleAppPage({ user: session.user, csrfToken: session.csrfToken, client, rotatedKey: appKey }),
      );
    }),
  );
}
