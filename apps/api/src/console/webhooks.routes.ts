import { Request, Response, Router } from 'express';
import {
  DomainError,
  ListRequest,
  createWebhookEndpoint,
  getWebhookEndpoint,
  isDomainError,
  listWebhookDeliveries,
  listWebhookEndpoints,
  retryWebhookDelivery,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  webhookDeliveryListDefinition,
  webhookEndpointListDefinition,
} from '@brand/core';
import { BrowserSession } from '../browser/browser-sessions';
import { messagePage, seeOther, sendPage } from '../browser/html-page';
import { nextCursorOf } from '../listing/list-request';
import { ConsoleKit, FormFields, positiveInteger, repeatedField, textField } from './console-context';
import {
  ShownSecret,
  WebhookSettingsForm,
  consoleWebhookPage,
  consoleWebhooksPage,
  webhookPath,
  withCursor,
} from './webhooks.pages';

const ENDPOINTS_PATH = '/console/webhooks';
/** Newest first: what happened last is what a person looks for. */
const NEWEST_FIRST = [{ key: 'id', direction: 'DESC' }];
const ROWS_PER_PAGE = '20';

/** The endpoint form's fields as sent; the core's rules (the API's) decide whether they can be used. */
const settingsFrom = (form: FormFields): WebhookSettingsForm => ({
  url: textField(form, 'url'),
  events: repeatedField(form, 'events').filter((value): value is string => typeof value === 'string'),
  description: textField(form, 'description'),
});

/** The form's error line: every refused field, as the core names it ("url must be …"). */
const problemsOf = (error: DomainError): string => error.violations.map((v) => v.detail).join('; ') || error.message;

const isRefusal = (error: unknown, code: DomainError['code']): error is DomainError =>
  isDomainError(error) && error.code === code;

/**
 * The brand's webhook endpoints (DESIGN §10) on the use cases of `/v10/webhook-endpoints`, so the
 * console holds exactly the API's rules: list and add (the signing secret shown once, on the answer
 * page only); an endpoint's page with its deliveries newest first, a Retry button each; enable and
 * disable; its settings; secret rotation (shown once). Another brand's endpoint, or a delivery of
 * another endpoint, is a 404 page and nothing changes. Every user of the brand may manage them.
 */
export function webhookRoutes(kit: ConsoleKit, router: Router): void {
  const { deps } = kit;
  const noSuchEndpoint = (res: Response) => kit.notFound(res, 'There is no such webhook endpoint in your brand.');

  /** The list request of a page: newest first, from the query string's cursor, checked as the API checks one. */
  async function newestFirst(req: Request, brandId: number): Promise<{ request: ListRequest; cursor: string | null }> {
    const raw = req.query['cursor'];
    const decoded = raw === undefined ? undefined : await deps.cursors.decode(raw);
    return {
      request: {
        brandId,
        query: { sort: NEWEST_FIRST, limit: ROWS_PER_PAGE, ...(raw !== undefined ? { cursor: raw } : {}) },
        ...(decoded ? { cursor: decoded } : {}),
      },
      cursor: typeof raw === 'string' && raw !== '' ? raw : null,
    };
  }

  /**
   * Runs a page or action, answering the core's refusals as pages: what the brand does not have is
   * a 404 page (tenants never learn of each other), a list link whose cursor is not ours (garbled,
   * or of another list) a 400 page leading back to `newest`.
   */
  async function withRefusalPages(res: Response, newest: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (isRefusal(error, 'not_found'))
        return error.data['resource'] === 'webhook delivery'
          ? kit.notFound(res, 'This endpoint has no such delivery.')
          : noSuchEndpoint(res);
      if (isRefusal(error, 'invalid_list_query'))
        return sendPage(
          res,
          400,
          messagePage(
            'This link cannot be used',
            'The list position in this link is not valid (it may belong to another list).',
            `<p><a href="${newest}">Back to the newest</a></p>`,
          ),
        );
      throw error;
    }
  }

  /** Runs a page or action on the endpoint of the path; an id that can name none is a 404 page too. */
  async function onEndpoint(res: Response, rawId: unknown, run: (id: number) => Promise<void>) {
    const id = positiveInteger(rawId);
    if (id === null) return noSuchEndpoint(res);
    await withRefusalPages(res, webhookPath(id), () => run(id));
  }

  async function showEndpoints(
    req: Request,
    res: Response,
    session: BrowserSession,
    status = 200,
    extra: { created?: ShownSecret; form?: WebhookSettingsForm; error?: string } = {},
  ): Promise<void> {
    const { user } = session;
    const result = await listWebhookEndpoints(deps, (await newestFirst(req, user.brandId)).request);
    const olderCursor = await nextCursorOf(result, webhookEndpointListDefinition, deps.cursors);
    sendPage(
      res,
      status,
      consoleWebhooksPage({ user, csrfToken: session.csrfToken, endpoints: result.page.items, olderCursor, ...extra }),
    );
  }

  async function showEndpoint(
    req: Request,
    res: Response,
    session: BrowserSession,
    endpointId: number,
    status = 200,
    extra: { rotated?: ShownSecret; form?: WebhookSettingsForm; error?: string } = {},
  ): Promise<void> {
    const { user } = session;
    const endpoint = await getWebhookEndpoint(deps, { brandId: user.brandId, id: endpointId });
    const { request, cursor } = await newestFirst(req, user.brandId);
    const result = await listWebhookDeliveries(deps, { ...request, endpointId });
    const olderCursor = await nextCursorOf(result, webhookDeliveryListDefinition, deps.cursors);
    sendPage(
      res,
      status,
      consoleWebhookPage({
        user,
        csrfToken: session.csrfToken,
        endpoint,
        deliveries: result.page.items,
        cursor,
        olderCursor,
        ...extra,
      }),
    );
  }

  router.get(
    ENDPOINTS_PATH,
    ...kit.page((req, res, session) => withRefusalPages(res, ENDPOINTS_PATH, () => showEndpoints(req, res, session))),
  );

  router.post(
    ENDPOINTS_PATH,
    ...kit.action(async (req, res, session, form) => {
      const settings = settingsFrom(form);
      let created: ShownSecret;
      try {
        created = await createWebhookEndpoint(deps, {
          brandId: session.user.brandId,
          url: settings.url,
          events: [...settings.events],
          description: settings.description,
        });
      } catch (error) {
        if (isRefusal(error, 'validation_failed'))
          return showEndpoints(req, res, session, 400, { form: settings, error: problemsOf(error) });
        throw error;
      }
      // The answer page itself shows the secret: no later page can show it again.
      await showEndpoints(req, res, session, 201, { created });
    }),
  );

  router.get(
    '/console/webhooks/:id',
    ...kit.page((req, res, session) => onEndpoint(res, req.params['id'], (id) => showEndpoint(req, res, session, id))),
  );

  router.post(
    '/console/webhooks/:id',
    ...kit.action((req, res, session, form) =>
      onEndpoint(res, req.params['id'], async (id) => {
        const settings = settingsFrom(form);
        try {
          await updateWebhookEndpoint(deps, {
            brandId: session.user.brandId,
            id,
            // The form always sends all three; an empty description clears it.
            changes: { url: settings.url, events: [...settings.events], description: settings.description },
          });
        } catch (error) {
          if (isRefusal(error, 'validation_failed'))
            return showEndpoint(req, res, session, id, 400, { form: settings, error: problemsOf(error) });
          throw error;
        }
        seeOther(res, webhookPath(id));
      }),
    ),
  );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    router.post(
      `/console/webhooks/:id/${action}`,
      ...kit.action((req, res, session) =>
        onEndpoint(res, req.params['id'], async (id) => {
          await updateWebhookEndpoint(deps, { brandId: session.user.brandId, id, changes: { enabled } });
          seeOther(res, webhookPath(id));
        }),
      ),
    );
  }

  router.post(
    '/console/webhooks/:id/rotate-secret',
    ...kit.action((req, res, session) =>
      onEndpoint(res, req.params['id'], async (id) => {
        const rotated = await rotateWebhookSecret(deps, { brandId: session.user.brandId, id });
        // Like a new endpoint's secret: shown on this answer only.
        await showEndpoint(req, res, session, id, 200, { rotated });
      }),
    ),
  );

  router.post(
    '/console/webhooks/:id/deliveries/:deliveryId/retry',
    ...kit.action((req, res, session, form) =>
      onEndpoint(res, req.params['id'], async (endpointId) => {
        const deliveryId = positiveInteger(req.params['deliveryId']);
        if (deliveryId === null) throw DomainError.notFound('webhook delivery', String(req.params['deliveryId']));
        await retryWebhookDelivery(deps, { brandId: session.user.brandId, endpointId, deliveryId });
        // Back to the page of deliveries the button was on (the cursor is checked again there).
        const cursor = textField(form, 'cursor');
        const page = webhookPath(endpointId);
        seeOther(res, cursor ? withCursor(page, cursor) : page);
      }),
    ),
  );
}
