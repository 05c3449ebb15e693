import { timingSafeEqual } from 'node:crypto';
import escapeHtml from 'escape-html';
import { Response } from 'express';

/**
 * Headers of every server-rendered page (OAuth login and consent, the console): never cached (they
 * hold CSRF tokens, a user's name, a token shown once), never framed (clickjacking).
 */
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

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:28rem;margin:4rem auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 1px 4px #0002}
main.wide{max-width:56rem}
h1{font-size:1.3rem;margin-top:0}h2{font-size:1.1rem}label{display:block;margin:.8rem 0 .3rem}
input[type=email],input[type=password],input[type=number],input[type=url],input[type=text],select,textarea{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
button{padding:.55rem 1.2rem;font-size:1rem;margin:1rem .5rem 0 0;cursor:pointer}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #e3e5ea;vertical-align:top}
td button{margin:0;padding:.3rem .8rem}td.wrap{overflow-wrap:anywhere}table.dense{font-size:.9rem}table.dense td.path{min-width:12rem}table.dense td.time{min-width:6.5rem}table.dense td.id{min-width:8rem;font-size:.8rem}
form.filters{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end;margin-bottom:1rem}form.filters>div{flex:1 1 12rem}
code.secret{display:block;word-break:break-all;background:#eef6ee;padding:.6rem;border-radius:4px}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px}
header.console{border-bottom:1px solid #e3e5ea;margin-bottom:1.2rem;padding-bottom:.8rem}header.console form{float:right;margin-top:-2.6rem}header.console button{margin:0}
nav a{color:#1d4ed8}nav a[aria-current=page]{font-weight:600;color:#1d2330;text-decoration:none}
svg.chart{width:100%;height:auto;display:block}.legend{font-size:.85rem;margin:.2rem 0 .6rem}.legend span{margin-right:1rem}caption{text-align:left;font-weight:600;padding:.6rem 0 .2rem}section.app{border-top:1px solid #e3e5ea;margin-top:1rem}h4{margin:.8rem 0 .2rem}
ul{list-style:none;padding:0}li{margin:.3rem 0}ul.columns{columns:2}ul.columns li{margin:0}ul.columns label{margin:0;padding:.2rem 0}.muted{color:#5b6270;font-size:.9rem}`;

/** A whole page: the title (escaped here) and the body (HTML the caller escaped); `wide` for tables. */
export function page(title: string, body: string, options: { wide?: boolean } = {}): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main${options.wide ? ' class="wide"' : ''}>${body}</main></body></html>`;
}

/** A hidden form field, name and value escaped. */
export const hidden = (name: string, value: string): string =>
  `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

/** The error message of a form, or nothing. */
export const errorBox = (message: string | null): string =>
  message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '';

/** A page that only explains something went wrong (or was refused). */
export const messagePage = (title: string, message: string, extra = ''): string =>
  page(title, `<h1>${escapeHtml(title)}</h1>${errorBox(message)}${extra}`);

/** Sends a page with the page headers (and any others, e.g. Retry-After). */
export function sendPage(res: Response, status: number, html: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set({ ...PAGE_HEADERS, ...headers })
    .send(html);
}

/** Whether two secrets are equal, in constant time (a CSRF token compared byte by byte would leak it). */
export function sameSecret(a: unknown, b: string | null): boolean {
  if (typeof a !== 'string' || b === null) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A post/redirect/get answer: 303 to `location`, never cached. */
export function seeOther(res: Response, location: string): void {
  res.status(303).set('Cache-Control', 'no-store').location(location).end();
}
