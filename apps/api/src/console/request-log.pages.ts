import escapeHtml from 'escape-html';
import { ConsoleRequestsPage, RecordedRequest, RequestStatusFilter, User } from '@brand/core';
import { errorBox } from '../browser/html-page';
import { consolePage, consoleTime } from './console-layout';

/** The request log's path. */
export const REQUEST_LOG_PATH = '/console/requests';

/** The filters a request log page was asked for (null: not filtered). */
export interface RequestLogFilters {
  status: RequestStatusFilter | null;
  appId: number | null;
}

/** The status filter's choices, in the order of the form. */
const STATUS_CHOICES: readonly { value: RequestStatusFilter; label: string }[] = [
  { value: 'errors', label: 'Errors (4xx and 5xx)' },
  { value: '2xx', label: '2xx: succeeded' },
  { value: '4xx', label: '4xx: refused' },
  { value: '5xx', label: '5xx: failed' },
];

/** A link to the request log with `filters`, from `cursor` (a position the API's cursor codec signed) when given. */
export function requestLogHref(filters: RequestLogFilters, cursor: string | null = null): string {
  const query = new URLSearchParams();
  if (filters.status !== null) query.set('status', filters.status);
  if (filters.appId !== null) query.set('app_id', String(filters.appId));
  if (cursor !== null) query.set('cursor', cursor);
  const search = query.toString();
  return search ? `${REQUEST_LOG_PATH}?${search}` : REQUEST_LOG_PATH;
}

const option = (value: string, label: string, selected: boolean): string =>
  `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;

/** The filter form: a plain GET, so a filtered page is a link like any other (and starts at the newest). */
function filterForm(page: ConsoleRequestsPage, filters: RequestLogFilters): string {
  const statuses = STATUS_CHOICES.map((choice) =>
    option(choice.value, choice.label, choice.value === filters.status),
  ).join('');
  const apps = page.apps.map((app) => option(String(app.id), app.name, app.id === filters.appId)).join('');
  return `<form method="get" action="${REQUEST_LOG_PATH}" class="filters" role="search" aria-label="Filter the requests">
<div><label for="status">Status</label><select id="status" name="status">${option('', 'Any status', filters.status === null)}${statuses}</select></div>
<div><label for="app_id">App</label><select id="app_id" name="app_id">${option('', 'Every app', filters.appId === null)}${apps}</select></div>
<button type="submit">Show requests</button></form>`;
}

function requestRow(request: RecordedRequest, appNames: Map<number, string>, users: Map<number, User>): string {
  const who = users.get(request.userId)?.name ?? `user ${request.userId}`;
  // Refusals and failures stand out: they are what one opens the log for.
  const status = request.status >= 400 ? `<strong>${request.status}</strong>` : String(request.status);
  // Under the request id, which it belongs with, rather than in a column that stays empty while tracing is off.
  const trace =
    request.traceId === null
      ? ''
      : `<br><span class="muted">trace</span> <code data-trace-id>${escapeHtml(request.traceId)}</code>`;
  return `<tr data-request-id="${escapeHtml(request.requestId)}"><td class="time">${consoleTime(request.createdAt)}</td><td>${escapeHtml(request.method)}</td><td class="wrap path"><code>${escapeHtml(request.path)}</code></td><td>${status}</td><td>${request.durationMs}</td><td>${escapeHtml(appNames.get(request.appId) ?? `app ${request.appId}`)}</td><td>${escapeHtml(who)}</td><td class="wrap id"><code>${escapeHtml(request.requestId)}</code>${trace}</td></tr>`;
}

/**
 * The request log: the brand's latest API requests, newest first (time, method, path as recorded,
 * status, duration, app, user, request id with the trace id when traced), the status and app filters, and links to the older
 * page and back to the newest.
 */
export function consoleRequestsPage(input: {
  user: User;
  csrfToken: string;
  page: ConsoleRequestsPage;
  filters: RequestLogFilters;
  /** Whether this page was opened from a position (a later page than the newest). */
  fromCursor: boolean;
  /** The signed position of the next older page, or null when there is none. */
  olderCursor: string | null;
}): string {
  const { page, filters } = input;
  const appNames = new Map(page.apps.map((app) => [app.id, app.name]));
  const users = new Map(page.users.map((user) => [user.id, user]));
  const filtered = filters.status !== null || filters.appId !== null;
  const list = page.requests.length
    ? `<table class="dense"><thead><tr><th>Time</th><th>Method</th><th>Path</th><th>Status</th><th>Duration (ms)</th><th>App</th><th>User</th><th>Request id</th></tr></thead>
<tbody>${page.requests.map((request) => requestRow(request, appNames, users)).join('')}</tbody></table>`
    : `<p class="muted">${
        input.fromCursor
          ? 'No older requests.'
          : filtered
            ? 'No requests match these filters.'
            : "No requests yet: the API requests of your brand's apps will appear here."
      }</p>`;
  const links = [
    input.olderCursor
      ? `<a href="${escapeHtml(requestLogHref(filters, input.olderCursor))}" rel="next">Older requests</a>`
      : '',
    input.fromCursor ? `<a href="${escapeHtml(requestLogHref(filters))}">Newest requests</a>` : '',
  ].filter(Boolean);
  return consolePage(
    { title: 'Request log', user: input.user, csrfToken: input.csrfToken, section: REQUEST_LOG_PATH },
    `<h1>Request log</h1>
<p class="muted">Every API request made with your brand's tokens, by any of its users and apps, newest first. Paths are recorded without their query string; requests appear within a moment of being answered.</p>
${filterForm(page, filters)}${list}${links.length ? `<p>${links.join(' · ')}</p>` : ''}`,
  );
}

/** The request log refusing its query string: what is wrong, naming the parameter, and the way back. */
export function consoleRequestsRefusalPage(input: { user: User; csrfToken: string; error: string }): string {
  return consolePage(
    { title: 'Request log', user: input.user, csrfToken: input.csrfToken, section: REQUEST_LOG_PATH },
    `<h1>Request log</h1>${errorBox(input.error)}<p><a href="${REQUEST_LOG_PATH}">Show the newest requests</a></p>`,
  );
}
