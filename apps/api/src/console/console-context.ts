import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { Clock, PasswordHasher, Repositories, SecretHasher, UnitOfWork } from '@brand/core';
import { BrowserSession, browserSessions } from '../browser/browser-sessions';
import { messagePage, sameSecret, seeOther, sendPage } from '../browser/html-page';
import { MAINTENANCE_RETRY_AFTER_SECONDS } from '../http/maintenance';
import { CursorCodec } from '../listing/cursor-codec';

/** What every console page needs: storage, the clock, the hashers, and whether the service is in maintenance. */
export interface ConsoleDeps {
  uow: UnitOfWork<Repositories>;
  clock: Clock;
  hasher: SecretHasher;
  passwordHasher: PasswordHasher;
  maintenanceMode: boolean;
  /** The API's list cursors, so that a console page walks a long list (a webhook's deliveries) as the API does. */
  cursors: CursorCodec;
}

/** A form post's fields as the urlencoded parser gives them (a repeated field is an array). */
export type FormFields = Record<string, unknown>;

/** Handles a page (GET) for the session's user. */
export type PageHandler = (req: Request, res: Response, session: BrowserSession) => Promise<void>;
/** Handles a form post whose CSRF token matched the session: the form's fields are given. */
export type ActionHandler = (req: Request, res: Response, session: BrowserSession, form: FormFields) => Promise<void>;

/** The shared console pipeline (see `consoleKit`). */
export interface ConsoleKit {
  deps: ConsoleDeps;
  sessionOf: (req: Request) => Promise<BrowserSession | null>;
  loginCsrfToken: (req: Request, res: Response) => string;
  /** The 403 page of a form whose CSRF token is missing or wrong. */
  forgedForm: (res: Response) => void;
  /** The 404 page: also what another brand's (or user's) resource answers, so tenants never learn of each other. */
  notFound: (res: Response, message: string) => void;
  /** A route without a session requirement (the login page), with the maintenance page and error forwarding. */
  open: (run: (req: Request, res: Response) => Promise<void>) => RequestHandler[];
  /** A form post without a session requirement (the login form), parsed. */
  openForm: (run: (req: Request, res: Response) => Promise<void>) => RequestHandler[];
  /** A page for a logged-in user: without a session it redirects to the login page. */
  page: (handler: PageHandler) => RequestHandler[];
  /** A form post of a logged-in user: the session and its CSRF token are checked before anything else. */
  action: (handler: ActionHandler) => RequestHandler[];
}

/** The forms hold a handful of short fields and a dozen checkboxes; anything larger is not one of them. */
const FORM_BODY_LIMIT = '16kb';

/**
 * The pipeline every console route shares, so that each page file holds only what its page does:
 * the maintenance page, form parsing, the session (a page without one redirects to the login, a
 * form without one or with a wrong CSRF token gets a 403 page and changes nothing), and the
 * refusal pages. Every handler receives the session whose brand and user scope what it shows.
 */
export function consoleKit(deps: ConsoleDeps): ConsoleKit {
  const formBody = express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 100 });
  const sessions = browserSessions(deps);

  const maintenance: RequestHandler = (_req, res, next) => {
    if (!deps.maintenanceMode) return next();
    sendPage(res, 503, messagePage('Temporarily unavailable', 'The service is in maintenance; try again shortly.'), {
      'Retry-After': String(MAINTENANCE_RETRY_AFTER_SECONDS),
    });
  };

  const forgedForm = (res: Response): void =>
    sendPage(
      res,
      403,
      messagePage(
        'The form has expired',
        'This form could not be verified (its security token is missing or wrong). Go back, reload the page and try again.',
      ),
    );

  const notFound = (res: Response, message: string): void => sendPage(res, 404, messagePage('Not found', message));

  const guarded =
    (run: (req: Request, res: Response) => Promise<void>): RequestHandler =>
    (req: Request, res: Response, next: NextFunction) => {
      run(req, res).catch(next);
    };

  return {
    deps,
    sessionOf: sessions.sessionOf,
    loginCsrfToken: sessions.loginCsrfToken,
    forgedForm,
    notFound,
    open: (run: (req: Request, res: Response) => Promise<void>): RequestHandler[] => [maintenance, guarded(run)],
    openForm: (run: (req: Request, res: Response) => Promise<void>): RequestHandler[] => [
      maintenance,
      formBody,
      guarded(run),
    ],
    page: (handler: PageHandler): RequestHandler[] => [
      maintenance,
      guarded(async (req, res) => {
        const session = await sessions.sessionOf(req);
        if (!session) return seeOther(res, '/console/login');
        await handler(req, res, session);
      }),
    ],
    action: (handler: ActionHandler): RequestHandler[] => [
      maintenance,
      formBody,
      guarded(async (req, res) => {
        const session = await sessions.sessionOf(req);
        const form = (req.body ?? {}) as FormFields;
        if (!session || !sameSecret(form['csrf_token'], session.csrfToken)) return forgedForm(res);
        await handler(req, res, session, form);
      }),
    ],
  };
}

/** A form field or path segment that is a positive whole number (digits only), or null. */
export function positiveInteger(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** A text field of a form, or '' when it is missing or repeated. */
export const textField = (form: FormFields, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value : '';
};

/** Every value of a field that may repeat (checkboxes, several inputs of one name), strings only. */
export const repeatedField = (form: FormFields, name: string): unknown[] =>
  form[name] === undefined ? [] : ([] as unknown[]).concat(form[name]);
