import { ApiApp, RecordedRequest, RequestLogPosition, User } from '../identity/identity.entities';
import { DomainError } from '../shared/errors';
import { Repositories, UnitOfWork } from '../shared/unit-of-work.ports';

/**
 * The console request log's status filters, as ranges of status codes (both ends included):
 * a class, or `errors` for every refusal and failure (4xx and 5xx), what one looks for first.
 */
export const REQUEST_STATUS_FILTERS = {
  '2xx': { min: 200, max: 299 },
  '4xx': { min: 400, max: 499 },
  '5xx': { min: 500, max: 599 },
  errors: { min: 400, max: 599 },
} as const satisfies Record<string, { min: number; max: number }>;

/** A status filter of the console's request log (see `REQUEST_STATUS_FILTERS`). */
export type RequestStatusFilter = keyof typeof REQUEST_STATUS_FILTERS;

/** Whether `value` names a status filter of the console's request log. */
export const isRequestStatusFilter = (value: unknown): value is RequestStatusFilter =>
  typeof value === 'string' && Object.hasOwn(REQUEST_STATUS_FILTERS, value);

/** Requests on one page of the console's request log. */
export const CONSOLE_REQUESTS_PER_PAGE = 50;

/** One page of a brand's request log, with what names its apps and users. */
export interface ConsoleRequestsPage {
  /** Newest first, at most `CONSOLE_REQUESTS_PER_PAGE`. */
  requests: RecordedRequest[];
  /** Where the next (older) page starts, or null when this page holds the oldest matching request. */
  older: RequestLogPosition | null;
  /** Every app of the brand, oldest first: names the requests' apps and is the app filter's choice. */
  apps: ApiApp[];
  /** The users the page's requests were made as. */
  users: User[];
}

/**
 * What the console's request log shows a logged-in user: the latest API requests of their whole
 * brand (every user and app of it, since a brand's staff look after all its integrations), newest
 * first, a page at a time, optionally of one app or status filter. An app that is not the brand's
 * is `not_found`: another brand's app id tells nothing, not even that it exists.
 * @example const page = await listConsoleRequests({ uow }, { brandId: user.brandId, appId: null, status: 'errors', before: null });
 */
export async function listConsoleRequests(
  deps: { uow: UnitOfWork<Pick<Repositories, 'requestLogs' | 'apiApps' | 'users'>> },
  input: {
    brandId: number;
    appId: number | null;
    status: RequestStatusFilter | null;
    before: RequestLogPosition | null;
  },
): Promise<ConsoleRequestsPage> {
  return deps.uow.read(async (r) => {
    const apps = await r.apiApps.listForBrand(input.brandId);
    if (input.appId !== null && !apps.some((app) => app.id === input.appId))
      throw DomainError.notFound('app', input.appId);
    // One more than a page tells whether an older page exists without counting the log.
    const found = await r.requestLogs.listForBrand({
      brandId: input.brandId,
      appId: input.appId,
      status: input.status === null ? null : REQUEST_STATUS_FILTERS[input.status],
      before: input.before,
      limit: CONSOLE_REQUESTS_PER_PAGE + 1,
    });
    const requests = found.slice(0, CONSOLE_REQUESTS_PER_PAGE);
    const last = requests[requests.length - 1];
    const older = found.length > CONSOLE_REQUESTS_PER_PAGE && last ? { createdAt: last.createdAt, id: last.id } : null;
    const users: User[] = [];
    // A page names a handful of users (a brand's integrations run as few): one lookup each.
    for (const userId of new Set(requests.map((request) => request.userId))) {
      const user = await r.users.findById(input.brandId, userId);
      if (user) users.push(user);
    }
    return { requests, older, apps, users };
  });
}
