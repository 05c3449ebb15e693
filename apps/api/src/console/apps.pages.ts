import escapeHtml from 'escape-html';
import { ApiApp, MAX_REDIRECT_URIS, OAuthClient, User } from '@brand/core';
import { errorBox, hidden } from '../browser/html-page';
import { consolePage } from './console-layout';

/** What the user typed into a form that was refused, so the page shows it again to be corrected. */
export interface AppDraft {
  name: string;
  internalCode: string;
  redirectUris: string[];
}

const EMPTY_DRAFT: AppDraft = { name: '', internalCode: '', redirectUris: [] };

/** The redirect URIs as lines of the form's textarea. */
const asLines = (uris: readonly string[]): string => escapeHtml(uris.join('\n'));

const redirectUrisCell = (uris: readonly string[]): string =>
  uris.length ? uris.map((uri) => `<code>${escapeHtml(uri)}</code>`).join('<br>') : '<span class="muted">none</span>';

const appPath = (app: ApiApp): string => `/console/apps/${app.id}`;

/** The key shown once: on the answer page of a creation or a rotation, never stored where a later page could show it. */
function shownKey(heading: string, app: ApiApp, appKey: string): string {
  return `<section aria-labelledby="new-key"><h2 id="new-key">${escapeHtml(heading)}</h2>
<p class="muted">Copy the key now: it is shown only this once. Send it as <code>X-Service-App-Key</code> with every request; it is also the OAuth <code>client_secret</code> of client id <code data-testid="client-id">${escapeHtml(app.clientId)}</code>.</p>
<code class="secret" data-testid="new-app-key">${escapeHtml(appKey)}</code></section>`;
}

const redirectUrisField = (value: readonly string[]): string =>
  `<label for="redirect_uris">Redirect URIs <span class="muted">(one per line, at most ${MAX_REDIRECT_URIS}; https, or http on localhost, 127.0.0.1 or [::1])</span></label>
<textarea id="redirect_uris" name="redirect_uris" rows="4">${asLines(value)}</textarea>`;

/**
 * The brand's apps (name linking to the app's page, client id, internal code, redirect URIs,
 * created) and the form registering one (name, optional internal code, redirect URIs one per
 * line). Given `created`, the new app's key is shown once, above everything else; given `error`,
 * the form holds `draft` again.
 */
export function consoleAppsPage(input: {
  user: User;
  csrfToken: string;
  apps: readonly OAuthClient[];
  created?: { app: ApiApp; appKey: string } | null;
  error?: string | null;
  draft?: AppDraft;
}): string {
  const draft = input.draft ?? EMPTY_DRAFT;
  const created = input.created
    ? shownKey(`Your new app ${input.created.app.name}`, input.created.app, input.created.appKey)
    : '';
  const rows = input.apps
    .map(
      ({ app, redirectUris }) =>
        `<tr data-app-id="${app.id}"><td><a href="${appPath(app)}">${escapeHtml(app.name)}</a></td><td><code>${escapeHtml(app.clientId)}</code></td><td>${app.internalCode ? escapeHtml(app.internalCode) : '<span class="muted">none</span>'}</td><td>${redirectUrisCell(redirectUris)}</td><td>${escapeHtml(app.createdAt.slice(0, 10))}</td></tr>`,
    )
    .join('');
  const list = input.apps.length
    ? `<table><thead><tr><th>Name</th><th>Client id</th><th>Internal code</th><th>Redirect URIs</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">Your brand has no apps yet.</p>';
  return consolePage(
    { title: 'Apps', user: input.user, csrfToken: input.csrfToken, section: '/console/apps' },
    `<h1>Apps</h1>${errorBox(input.error ?? null)}${created}${list}
<h2>Create an app</h2>
<form method="post" action="/console/apps">${hidden('csrf_token', input.csrfToken)}
<label for="name">Name</label><input id="name" type="text" name="name" required value="${escapeHtml(draft.name)}">
<label for="internal_code">Internal code <span class="muted">(optional: the partner portal type the app acts as; a-z, 0-9, _ or -)</span></label><input id="internal_code" type="text" name="internal_code" value="${escapeHtml(draft.internalCode)}">
${redirectUrisField(draft.redirectUris)}
<button type="submit">Create app</button></form>`,
  );
}

/**
 * One app: its client id, internal code and creation, the form replacing its redirect URIs, and
 * the way to rotate its key (a confirmation page first). Given `rotatedKey`, the new key is shown
 * once; given `error`, the redirect URI form holds `draftRedirectUris` again.
 */
export function consoleAppPage(input: {
  user: User;
  csrfToken: string;
  client: OAuthClient;
  rotatedKey?: string | null;
  error?: string | null;
  draftRedirectUris?: readonly string[];
}): string {
  const { app, redirectUris } = input.client;
  const rotated = input.rotatedKey ? shownKey(`The new key of ${app.name}`, app, input.rotatedKey) : '';
  return consolePage(
    { title: `App ${app.name}`, user: input.user, csrfToken: input.csrfToken, section: '/console/apps' },
    `<p><a href="/console/apps">← All apps</a></p><h1>${escapeHtml(app.name)}</h1>${errorBox(input.error ?? null)}${rotated}
<table><tbody><tr><th>Client id</th><td><code>${escapeHtml(app.clientId)}</code></td></tr>
<tr><th>Internal code</th><td>${app.internalCode ? escapeHtml(app.internalCode) : '<span class="muted">none</span>'}</td></tr>
<tr><th>Redirect URIs</th><td data-testid="redirect-uris">${redirectUrisCell(redirectUris)}</td></tr>
<tr><th>Created</th><td>${escapeHtml(app.createdAt.slice(0, 10))}</td></tr></tbody></table>
<h2>Change the redirect URIs</h2>
<form method="post" action="${appPath(app)}/redirect-uris">${hidden('csrf_token', input.csrfToken)}
${redirectUrisField(input.draftRedirectUris ?? redirectUris)}
<p class="muted">The list replaces the registered one; leave it empty to register none.</p>
<button type="submit">Save redirect URIs</button></form>
<h2>App key</h2>
<p class="muted">The key is stored only as a hash and cannot be shown again. Rotating gives the app a new key and the current one stops working at once, for API requests and as the OAuth client secret; the access tokens already issued keep working with the new key.</p>
<p><a href="${appPath(app)}/rotate-key">Rotate the key…</a></p>`,
  );
}

/** The confirmation asked before a key is rotated: what stops working, and the button that does it. */
export function consoleRotateKeyPage(input: { user: User; csrfToken: string; app: ApiApp }): string {
  const { app } = input;
  return consolePage(
    { title: `Rotate the key of ${app.name}`, user: input.user, csrfToken: input.csrfToken, section: '/console/apps' },
    `<h1>Rotate the key of ${escapeHtml(app.name)}?</h1>
<p>The app gets a new key, shown once on the next page. The current key stops working <strong>at once</strong>: every request sending it as <code>X-Service-App-Key</code>, and every OAuth token request using it as the client secret of <code>${escapeHtml(app.clientId)}</code>, is refused from then on. Update the integration with the new key straight away.</p>
<form method="post" action="${appPath(app)}/rotate-key">${hidden('csrf_token', input.csrfToken)}
<button type="submit">Rotate the key now</button> <a href="${appPath(app)}">Cancel</a></form>`,
  );
}
