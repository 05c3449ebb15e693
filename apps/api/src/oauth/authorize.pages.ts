import escapeHtml from 'escape-html';
import { Scope } from '@brand/core';
import { errorBox, hidden, messagePage, page } from '../browser/html-page';

/** The authorization request as the pages carry it along in hidden fields, parameter by parameter. */
export type CarriedAuthorizationRequest = Record<
  'response_type' | 'client_id' | 'redirect_uri' | 'scope' | 'state' | 'code_challenge' | 'code_challenge_method',
  string
>;

const AREA_NAMES: Readonly<Record<string, string>> = {
  catalog: 'Catalog (products, variants, stock)',
  customers: 'Customers',
  orders: 'Orders',
  fulfilment: 'Fulfilment (shipments)',
  returns: 'Returns',
  finance: 'Finance (invoices, payments)',
  production: 'Production',
  settings: 'Settings',
  webhooks: 'Webhooks',
};

/** A scope as a person reads it: "Orders: read", "Catalog (products, variants, stock): read and change". */
export function readableScope(scope: Scope): string {
  const [area = '', access] = scope.split(':');
  return `${AREA_NAMES[area] ?? area}: ${access === 'write' ? 'read and change' : 'read'}`;
}

const carried = (request: CarriedAuthorizationRequest, without: readonly string[] = []): string =>
  Object.entries(request)
    .filter(([name]) => !without.includes(name))
    .map(([name, value]) => hidden(name, value))
    .join('');

/** The log-in form: inputs `email` and `password`, the authorization request and the CSRF token carried along. */
export function loginPage(input: {
  appName: string;
  request: CarriedAuthorizationRequest;
  csrfToken: string;
  email?: string;
  error?: string | null;
}): string {
  return page(
    'Log in',
    `<h1>Log in</h1><p class="muted">to allow <strong>${escapeHtml(input.appName)}</strong> access to your brand's data.</p>${errorBox(input.error ?? null)}
<form method="post" action="/oauth/login">${hidden('csrf_token', input.csrfToken)}${carried(input.request)}
<label for="email">Email</label><input id="email" type="email" name="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">
<label for="password">Password</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">Log in</button></form>`,
  );
}

/** The consent form: the app and brand, the scopes asked as checkboxes, buttons `decision=allow` / `decision=deny`. */
export function consentPage(input: {
  appName: string;
  brandName: string;
  userName: string;
  scopes: readonly Scope[];
  request: CarriedAuthorizationRequest;
  csrfToken: string;
  error?: string | null;
}): string {
  const scopes = input.scopes
    .map(
      (scope) =>
        `<li><label><input type="checkbox" name="scope" value="${escapeHtml(scope)}" checked> ${escapeHtml(readableScope(scope))} <span class="muted">(${escapeHtml(scope)})</span></label></li>`,
    )
    .join('');
  return page(
    `Allow ${input.appName}?`,
    `<h1>Allow <strong>${escapeHtml(input.appName)}</strong> to use <strong>${escapeHtml(input.brandName)}</strong>?</h1>
<p class="muted">Logged in as ${escapeHtml(input.userName)}. The app will act on your behalf with these permissions; untick what it should not have.</p>${errorBox(input.error ?? null)}
<form method="post" action="/oauth/authorize">${hidden('csrf_token', input.csrfToken)}${carried(input.request, ['scope'])}
<ul>${scopes}</ul>
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></form>
${logoutForm(input.request, input.csrfToken)}`,
  );
}

const logoutForm = (request: CarriedAuthorizationRequest, csrfToken: string): string =>
  `<form method="post" action="/oauth/logout">${hidden('csrf_token', csrfToken)}${carried(request)}<button type="submit">Log out and use another account</button></form>`;

/**
 * A page that explains a refusal and never redirects (the redirect URI may not be the client's);
 * given `logout`, it offers to log out and start again with another account.
 */
export function errorPage(
  title: string,
  message: string,
  logout?: { request: CarriedAuthorizationRequest; csrfToken: string },
): string {
  return messagePage(title, message, logout ? logoutForm(logout.request, logout.csrfToken) : '');
}
