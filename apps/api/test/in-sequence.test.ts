import { NextFunction, Request, RequestHandler, Response } from 'express';
import { inSequence } from '../src/http/in-sequence';

const req = {} as Request;
const res = {} as Response;

/** Runs `handler` and resolves with what it handed to its own `next` (undefined for a plain `next()`). */
function outcomeOf(handler: RequestHandler): Promise<{ passedOn: unknown }> {
  return new Promise((resolve) => {
    const done: NextFunction = (passedOn?: unknown) => resolve({ passedOn });
    void handler(req, res, done);
  });
}

/** A step that records its name and moves on. */
const step =
  (ran: string[], name: string): RequestHandler =>
  (_req, _res, next) => {
    ran.push(name);
    next();
  };

describe('inSequence', () => {
  it('runs the steps in order and then hands on to the next handler', async () => {
    const ran: string[] = [];
    const outcome = await outcomeOf(inSequence([step(ran, 'a'), step(ran, 'b'), step(ran, 'c')]));
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(outcome.passedOn).toBeUndefined();
  });

  it('waits for asynchronous steps', async () => {
    const ran: string[] = [];
    const later: RequestHandler = async (_req, _res, next) => {
      await new Promise((resolve) => setImmediate(resolve));
      ran.push('later');
      next();
    };
    await outcomeOf(inSequence([step(ran, 'a'), later, step(ran, 'b')]));
    expect(ran).toEqual(['a', 'later', 'b']);
  });

  it.each([
    [
      'passed to next',
      (error: Error): RequestHandler =>
        (_req, _res, next) =>
          next(error),
    ],
    [
      'thrown',
      (error: Error): RequestHandler =>
        () => {
          throw error;
        },
    ],
    [
      'rejected',
      (error: Error): RequestHandler =>
        async () => {
          await Promise.resolve();
          throw error;
        },
    ],
  ])('hands an error %s on and skips the steps after it', async (_how, failing) => {
    const ran: string[] = [];
    const error = new Error('refused');
    const outcome = await outcomeOf(inSequence([step(ran, 'a'), failing(error), step(ran, 'b')]));
    expect(outcome.passedOn).toBe(error);
    expect(ran).toEqual(['a']);
  });

  it("skips the rest without an error on next('route')", async () => {
    const ran: string[] = [];
    const outcome = await outcomeOf(inSequence([(_req, _res, next) => next('route'), step(ran, 'b')]));
    expect(outcome.passedOn).toBeUndefined();
    expect(ran).toEqual([]);
  });

  it('refuses an error handler among its steps, which Express would only call for an error', () => {
    const errorHandler = ((_error: unknown, _req: Request, _res: Response, next: NextFunction) => next()) as never;
    expect(() => inSequence([errorHandler])).toThrow(/not error handlers/);
  });
});
