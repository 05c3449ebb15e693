import escapeHtml from 'escape-html';
import { User } from '@brand/core';
import { errorBox, hidden, page } from '../browser/html-page';

/** The console's sections, in the order of its navigation. */
export const CONSOLE_SECTIONS = [
  { path: '/console/apps', label: 'Apps' },
  { path: '/console/tokens', label: 'Personal access tokens' },
  { path: '/console/webhooks', label: 'Webhook endpoints' },
  { path: '/console/requests', label: 'Request log' },
  { path: '/console/health', label: 'Integration health' },
] as const;

export type ConsoleSectionPath = (typeof CONSOLE_SECTIONS)[number]['path'];

/** An instant as people read it, in UTC to the second (the API's times are UTC too); exact in `datetime`. */
export const consoleTime = (iso: string): string =>
  `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 19).replace('T', ' '))} UTC</time>`;

/** The console's log-in form: inputs `email` and `password` and the CSRF token. */
export function consoleLoginPage(input: { csrfToken: string; email?: string; error?: string | null }): string {
  return page(
    'Log in to the console',
    `<h1>Log in to the console</h1>${errorBox(input.error ?? null)}
<form method="post" action="/console/login">${hidden('csrf_token', input.csrfToken)}
<label for="email">Email</label><input id="email" type="email" name="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">
<label for="password">Password</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">Log in</button></form>`,
  );
}

/**
 * A page of the logged-in console: who is logged in, the log-out button, the sections (the
 * current one marked `aria-current`), then the page's own body (HTML the caller escaped).
 */
export function consolePage(
  input: { title: string; user: User; csrfToken: string; section: ConsoleSectionPath },
  body: string,
): string {
  const nav = CONSOLE_SECTIONS.map((section) =>
    section.path === input.section
      ? `<a href="${section.path}" aria-current="page">${escapeHtml(section.label)}</a>`
      : `<a href="${section.path}">${escapeHtml(section.label)}</a>`,
  ).join(' · ');
  return page(
    input.title,
    `<header class="console"><p class="muted">Logged in as ${escapeHtml(input.user.name)} (${escapeHtml(input.user.email)})</p>
<form method="post" action="/console/logout">${hidden('csrf_token', input.csrfToken)}<button type="submit">Log out</button></form>
<nav aria-label="Console">${nav}</nav></header>${body}`,
    { wide: true },
  );
}
