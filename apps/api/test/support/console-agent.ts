import { Server } from 'node:http';
import request from 'supertest';

/** The CSRF token of a console page's forms. */
export function csrfTokenOf(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no CSRF token on the page: ${html.slice(0, 300)}`);
  return token;
}

/** The text of the element with `data-testid="<testId>"` (a secret shown once), or an error naming it. */
export function shownOnce(html: string, testId: string): string {
  const value = new RegExp(`data-testid="${testId}">([^<]+)<`).exec(html)?.[1];
  if (!value) throw new Error(`no ${testId} on the page: ${html.slice(0, 300)}`);
  return value;
}

/** A urlencoded form body; pairs, so a field may repeat (checkboxes, several inputs). */
export const formBody = (fields: [string, string][]): string => new URLSearchParams(fields).toString();

export type ConsoleAgent = ReturnType<typeof request.agent>;

/**
 * A fresh browser (cookie jar) logged in to the console as `email`, and the CSRF token of its
 * pages (read from `page`, any console page).
 */
export async function logInToConsole(
  server: Server,
  email: string,
  password: string,
  page = '/console/tokens',
): Promise<{ agent: ConsoleAgent; csrfToken: string }> {
  const agent = request.agent(server);
  const loginPage = await agent.get('/console/login');
  const answer = await agent
    .post('/console/login')
    .type('form')
    .send(
      formBody([
        ['csrf_token', csrfTokenOf(loginPage.text)],
        ['email', email],
        ['password', password],
      ]),
    );
  if (answer.status !== 303) throw new Error(`logging in as ${email} answered ${answer.status}`);
  const landing = await agent.get(page);
  if (landing.status !== 200) throw new Error(`${page} answered ${landing.status} after logging in`);
  return { agent, csrfToken: csrfTokenOf(landing.text) };
}
