import escapeHtml from 'escape-html';
import {
  ALL_EVENTS,
  EVENT_TYPES,
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  User,
  WebhookDelivery,
  WebhookEndpoint,
} from '@brand/core';
import { errorBox, hidden } from '../browser/html-page';
import { eventPublicId } from '../presenters/event.presenter';
import { consolePage, consoleTime } from './console-layout';

/** What the endpoint form holds: as stored, or as the user sent it when it was refused. */
export interface WebhookSettingsForm {
  url: string;
  events: readonly string[];
  description: string;
}

/** A signing secret to show this once: a new endpoint's, or a rotation's. */
export interface ShownSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

const NO_SETTINGS: WebhookSettingsForm = { url: '', events: [], description: '' };

/** The path of an endpoint's page. */
export const webhookPath = (endpointId: number): string => `/console/webhooks/${endpointId}`;

/** A page further into its list: the list's signed cursor rides in the query string. */
export const withCursor = (path: string, cursor: string): string => `${path}?cursor=${encodeURIComponent(cursor)}`;

/** An instant, or a dash where there is none (no next attempt). */
const when = (iso: string | null): string => (iso === null ? '—' : consoleTime(iso));

const subscribed = (events: readonly string[]): string =>
  events.includes(ALL_EVENTS) ? 'All events' : events.map((type) => escapeHtml(type)).join('<br>');

const settingsOf = (endpoint: WebhookEndpoint): WebhookSettingsForm => ({
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description ?? '',
});

/** The secret, shown once, with what to do with it. */
function secretBox(shown: ShownSecret, heading: string): string {
  return `<section aria-labelledby="secret"><h2 id="secret">${escapeHtml(heading)}</h2>
<p class="muted">Copy it now: it is shown only this once. Check each delivery's <code>webhook-signature</code> with it (Standard Webhooks).</p>
<code class="secret" data-testid="new-webhook-secret">${escapeHtml(shown.secret)}</code>
<p><a href="${webhookPath(shown.endpoint.id)}">Open the endpoint and its deliveries</a></p></section>`;
}

/** The fields of an endpoint: URL, the event types as checkboxes ("all events" first), description. */
function settingsFields(settings: WebhookSettingsForm): string {
  const ticked = new Set(settings.events);
  const choice = (value: string, label: string) =>
    `<li><label><input type="checkbox" name="events" value="${escapeHtml(value)}"${ticked.has(value) ? ' checked' : ''}> ${label}</label></li>`;
  const types = EVENT_TYPES.map((type) => choice(type, escapeHtml(type))).join('');
  return `<label for="url">URL</label><input id="url" type="url" name="url" maxlength="${MAX_WEBHOOK_URL_LENGTH}" placeholder="https://erp.example.com/hooks" required value="${escapeHtml(settings.url)}">
<fieldset><legend>Events</legend><ul>${choice(ALL_EVENTS, 'All events <span class="muted">(also types added later)</span>')}</ul>
<p class="muted">or only these:</p><ul class="columns">${types}</ul></fieldset>
<label for="description">Description <span class="muted">(optional)</span></label><input id="description" type="text" name="description" maxlength="${MAX_WEBHOOK_DESCRIPTION_LENGTH}" value="${escapeHtml(settings.description)}">`;
}

/**
 * The webhook endpoints page: the brand's endpoints, newest first (URL linking to its page, events,
 * description, enabled, created), and the form adding one. Given `created`, the new endpoint's
 * signing secret is shown once, above everything else.
 */
export function consoleWebhooksPage(input: {
  user: User;
  csrfToken: string;
  endpoints: readonly WebhookEndpoint[];
  olderCursor: string | null;
  created?: ShownSecret | null;
  form?: WebhookSettingsForm;
  error?: string | null;
}): string {
  const rows = input.endpoints
    .map(
      (endpoint) =>
        `<tr data-webhook-id="${endpoint.id}"><td><a href="${webhookPath(endpoint.id)}">${escapeHtml(endpoint.url)}</a></td><td>${subscribed(endpoint.events)}</td><td>${escapeHtml(endpoint.description ?? '')}</td><td>${endpoint.enabled ? 'enabled' : 'disabled'}</td><td>${when(endpoint.createdAt)}</td></tr>`,
    )
    .join('');
  const list = input.endpoints.length
    ? `<table><thead><tr><th>URL</th><th>Events</th><th>Description</th><th>Status</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">Your brand has no webhook endpoints yet.</p>';
  const older = input.olderCursor
    ? `<p><a href="${escapeHtml(withCursor('/console/webhooks', input.olderCursor))}">Older endpoints</a></p>`
    : '';
  return consolePage(
    { title: 'Webhook endpoints', user: input.user, csrfToken: input.csrfToken, section: '/console/webhooks' },
    `<h1>Webhook endpoints</h1>${errorBox(input.error ?? null)}${input.created ? secretBox(input.created, 'Signing secret of your new endpoint') : ''}${list}${older}
<h2>Add an endpoint</h2>
<form method="post" action="/console/webhooks">${hidden('csrf_token', input.csrfToken)}
${settingsFields(input.form ?? NO_SETTINGS)}
<button type="submit">Add endpoint</button></form>`,
  );
}

/**
 * One endpoint's page: whether it is enabled (and the button switching it), its settings form, the
 * secret rotation, and its deliveries newest first with a Retry button each and a link to older
 * ones. Given `rotated`, the new secret is shown once.
 */
export function consoleWebhookPage(input: {
  user: User;
  csrfToken: string;
  endpoint: WebhookEndpoint;
  deliveries: readonly WebhookDelivery[];
  /** The cursor this page of deliveries was opened with (null: the newest), so a retry comes back to it. */
  cursor: string | null;
  olderCursor: string | null;
  rotated?: ShownSecret | null;
  form?: WebhookSettingsForm;
  error?: string | null;
}): string {
  const { endpoint, csrfToken } = input;
  const path = webhookPath(endpoint.id);
  const csrf = hidden('csrf_token', csrfToken);
  const status = endpoint.enabled
    ? `<p>Status: <strong>enabled</strong></p>
<form method="post" action="${path}/disable">${csrf}<button type="submit">Disable</button></form>`
    : `<p>Status: <strong>disabled</strong> <span class="muted">(it receives no new events, and a retried delivery fails at once; enable it first)</span></p>
<form method="post" action="${path}/enable">${csrf}<button type="submit">Enable</button></form>`;
  const back = input.cursor ? hidden('cursor', input.cursor) : '';
  const rows = input.deliveries
    .map(
      (delivery) =>
        `<tr data-delivery-id="${delivery.id}"><td>${escapeHtml(delivery.eventType)}</td><td><code>${escapeHtml(eventPublicId(delivery.eventId))}</code></td><td>${escapeHtml(delivery.status)}</td><td>${delivery.attempts}</td><td>${delivery.lastStatusCode ?? '—'}</td><td>${escapeHtml(delivery.lastError ?? '')}</td><td>${when(delivery.nextAttemptAt)}</td><td>${when(delivery.updatedAt)}</td>
<td><form method="post" action="${path}/deliveries/${delivery.id}/retry">${csrf}${back}<button type="submit">Retry</button></form></td></tr>`,
    )
    .join('');
  const deliveries = input.deliveries.length
    ? `<table><thead><tr><th>Event type</th><th>Event</th><th>Status</th><th>Attempts</th><th>Last status</th><th>Last error</th><th>Next attempt</th><th>Updated</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="muted">${input.cursor ? 'No older deliveries.' : 'No deliveries yet: events the endpoint subscribes to will appear here.'}</p>`;
  const paging = [
    input.cursor ? `<a href="${path}">Newest deliveries</a>` : '',
    input.olderCursor ? `<a href="${escapeHtml(withCursor(path, input.olderCursor))}">Older deliveries</a>` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return consolePage(
    { title: `Webhook endpoint ${endpoint.url}`, user: input.user, csrfToken, section: '/console/webhooks' },
    `<p><a href="/console/webhooks">All webhook endpoints</a></p>
<h1>Webhook endpoint</h1><p><code>${escapeHtml(endpoint.url)}</code></p>${errorBox(input.error ?? null)}${input.rotated ? secretBox(input.rotated, 'Its new signing secret') : ''}
${status}<p class="muted">Created ${when(endpoint.createdAt)}, last changed ${when(endpoint.updatedAt)}.</p>
<h2>Deliveries</h2>${deliveries}${paging ? `<p>${paging}</p>` : ''}
<h2>Settings</h2>
<form method="post" action="${path}">${csrf}
${settingsFields(input.form ?? settingsOf(endpoint))}
<button type="submit">Save settings</button></form>
<h2>Signing secret</h2>
<p class="muted">A new secret is shown once. For 24 hours deliveries are signed with the old one too, so the receiver can switch without refusing any.</p>
<form method="post" action="${path}/rotate-secret">${csrf}<button type="submit">Rotate secret</button></form>`,
  );
}
