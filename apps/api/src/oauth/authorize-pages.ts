import escapeHtml from 'escape-html';
import { Scope } from '@brand/core';

/** The authorization request as the pages carry it along in hidden fields, parameter by parameter. */
export type CarriedAuthorizationRequest = Record<
  'response_type' | 'client_id' | 'redirect_uri' | 'scope' | 'state' | 'code_challenge' | 'code_challenge_method',
  string
>;

/** Headers of every page here: never cached (they hold CSRF tokens and a user's name), never framed (clickjacking). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // No script at all; the one stylesheet is inline. No form-action: Chromium applies it to the
  // redirect after the consent form, which goes to the client's own origin.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
};

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

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:28rem;margin:4rem auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.8rem 0 .3rem}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
button{padding:.55rem 1.2rem;font-size:1rem;margin:1rem .5rem 0 0;cursor:pointer}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px}
ul{list-style:none;padding:0}li{margin:.3rem 0}.muted{color:#5b6270;font-size:.9rem}`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const hidden = (name: string, value: string): string =>
  `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

const carried = (request: CarriedAuthorizationRequest, without: readonly string[] = []): string =>
  Object.entries(request)
    .filter(([name]) => !without.includes(name))
    .map(([name, value]) => hidden(name, value))
    .join('');

const errorBox = (message: string | null): string =>
  message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '';

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
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(message)}</p>${logout ? logoutForm(logout.request, logout.csrfToken) : ''}`,
  );
}
