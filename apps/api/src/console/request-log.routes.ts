import { Request, Router } from 'express';
import { RequestLogPosition, isDomainError, isRequestStatusFilter, listConsoleRequests } from '@brand/core';
import { sendPage } from '../browser/html-page';
import { CursorCodec } from '../listing/cursor-codec';
import { ConsoleKit, positiveInteger } from './console-context';
import {
  REQUEST_LOG_PATH,
  RequestLogFilters,
  consoleRequestsPage,
  consoleRequestsRefusalPage,
} from './request-log.pages';

/** What a request log cursor is made for: it is refused by every other list, and theirs by this one. */
const CURSOR_RESOURCE = 'console_requests';
const CURSOR_SORT = 'created_at:DESC,id:DESC';

/** Whether a query parameter was left out, or sent empty (the filter form's "any" choice). */
const absent = (value: unknown): boolean => value === undefined || value === '';

/** The page's filters and position from its query string, or the refusal naming the first bad parameter. */
async function pageQueryOf(
  req: Request,
  cursors: CursorCodec,
): Promise<{ filters: RequestLogFilters; before: RequestLogPosition | null } | { error: string }> {
  const { status, app_id: rawAppId, cursor } = req.query;
  if (!absent(status) && !isRequestStatusFilter(status))
    return { error: 'status: must be one of 2xx, 4xx, 5xx or errors (4xx and 5xx).' };
  const appId = absent(rawAppId) ? null : positiveInteger(rawAppId);
  if (!absent(rawAppId) && appId === null) return { error: "app_id: must be the id of one of your brand's apps." };
  let before: RequestLogPosition | null = null;
  if (!absent(cursor)) {
    const decoded = await cursors.decode(cursor);
    const [createdAt, id] = decoded?.values ?? [];
    if (
      decoded?.resource !== CURSOR_RESOURCE ||
      decoded.sort !== CURSOR_SORT ||
      typeof createdAt !== 'string' ||
      typeof id !== 'number'
    )
      return { error: 'cursor: this link to older requests is not valid; start again from the newest.' };
    before = { createdAt, id };
  }
  return { filters: { status: isRequestStatusFilter(status) ? status : null, appId }, before };
}

/**
 * The request log (DESIGN §11): the latest API requests of the logged-in user's brand, every user
 * and app of it, newest first, 50 a page, filtered by status class and app. Bad query parameters
 * are a 400 page naming the parameter; an app the brand does not have is a 404 page.
 */
export function requestLogRoutes(kit: ConsoleKit, router: Router): void {
  const { deps } = kit;

  router.get(
    REQUEST_LOG_PATH,
    ...kit.page(async (req, res, session) => {
      const { user, csrfToken } = session;
      const query = await pageQueryOf(req, deps.cursors);
      if ('error' in query)
        return sendPage(res, 400, consoleRequestsRefusalPage({ user, csrfToken, error: query.error }));
      const page = await listConsoleRequests(deps, {
        brandId: user.brandId,
        ...query.filters,
        before: query.before,
      }).catch((error: unknown) => {
        if (isDomainError(error) && error.code === 'not_found') return null;
        throw error;
      });
      // Another brand's app is treated as missing: tenants never see each other.
      if (page === null) return kit.notFound(res, 'There is no such app in your brand.');
      const olderCursor = page.older
        ? await deps.cursors.encode({
            resource: CURSOR_RESOURCE,
            sort: CURSOR_SORT,
            values: [page.older.createdAt, page.older.id],
          })
        : null;
      sendPage(
        res,
        200,
        consoleRequestsPage({
          user,
          csrfToken,
          page,
          filters: query.filters,
          fromCursor: query.before !== null,
          olderCursor,
        }),
      );
    }),
  );
}
