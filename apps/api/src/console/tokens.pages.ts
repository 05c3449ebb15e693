import escapeHtml from 'escape-html';
import { ALL_SCOPES, AccessToken, ApiApp, User } from '@brand/core';
import { errorBox, hidden } from '../browser/html-page';
import { consolePage } from './console-layout';
import { readableScope } from '../oauth/authorize.pages';

const tokenStatus = (token: AccessToken, now: string): string =>
  token.revokedAt ? `revoked ${token.revokedAt.slice(0, 10)}` : token.expiresAt <= now ? 'expired' : 'active';

/**
 * The personal access tokens page: the user's tokens (app, scopes, expiry, status, a revoke button
 * for the live ones) and the form issuing one (app of the brand, scopes as checkboxes, expiry in
 * days). Given `issued`, the plain token is shown once, above everything else.
 */
export function consoleTokensPage(input: {
  user: User;
  tokens: readonly AccessToken[];
  apps: readonly ApiApp[];
  csrfToken: string;
  now: string;
  issued?: { accessToken: string; appName: string } | null;
  error?: string | null;
}): string {
  const appName = new Map(input.apps.map((app) => [app.id, app.name]));
  const issued = input.issued
    ? `<section aria-labelledby="issued"><h2 id="issued">Your new token for ${escapeHtml(input.issued.appName)}</h2>
<p class="muted">Copy it now: it is shown only this once. Send it as <code>Authorization: Bearer …</code> with the app's key.</p>
<code class="secret" data-testid="new-token">${escapeHtml(input.issued.accessToken)}</code></section>`
    : '';
  const rows = input.tokens
    .map((token) => {
      const live = !token.revokedAt && token.expiresAt > input.now;
      const revoke = live
        ? `<form method="post" action="/console/tokens/${token.id}/revoke">${hidden('csrf_token', input.csrfToken)}<button type="submit">Revoke</button></form>`
        : '';
      return `<tr data-token-id="${token.id}"><td>${escapeHtml(appName.get(token.appId) ?? `app ${token.appId}`)}</td><td>${token.scopes.map((s) => escapeHtml(s)).join('<br>')}</td><td>${escapeHtml(token.expiresAt.slice(0, 10))}</td><td>${escapeHtml(tokenStatus(token, input.now))}</td><td>${revoke}</td></tr>`;
    })
    .join('');
  const list = input.tokens.length
    ? `<table><thead><tr><th>App</th><th>Scopes</th><th>Expires</th><th>Status</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">You have no tokens yet.</p>';
  const apps = input.apps.map((app) => `<option value="${app.id}">${escapeHtml(app.name)}</option>`).join('');
  const scopes = ALL_SCOPES.map(
    (scope) =>
      `<li><label><input type="checkbox" name="scope" value="${escapeHtml(scope)}"> ${escapeHtml(readableScope(scope))} <span class="muted">(${escapeHtml(scope)})</span></label></li>`,
  ).join('');
  const form = input.apps.length
    ? `<form method="post" action="/console/tokens">${hidden('csrf_token', input.csrfToken)}
<label for="app_id">App</label><select id="app_id" name="app_id" required>${apps}</select>
<fieldset><legend>Scopes</legend><ul>${scopes}</ul></fieldset>
<label for="expires_in_days">Expires in (days)</label><input id="expires_in_days" type="number" name="expires_in_days" min="1" max="3650" value="90" required>
<button type="submit">Issue token</button></form>`
    : '<p class="muted">Your brand has no apps yet; create one first.</p>';
  return consolePage(
    { title: 'Personal access tokens', user: input.user, csrfToken: input.csrfToken, section: '/console/tokens' },
    `<h1>Personal access tokens</h1>${errorBox(input.error ?? null)}${issued}${list}
<h2>Issue a token</h2>${form}`,
  );
}
