import { DomainError } from '@brand/core';
import { toErrorResponse } from '../src/http/error-handler';

/** An error as http-errors makes them (Express, its router and body-parser throw these). */
const httpError = (status: number, message: string, expose: boolean) =>
  Object.assign(new Error(message), { status, statusCode: status, expose });

describe('turning what was thrown into an answer', () => {
  it('keeps a client error the stack raised (a 4xx it marks safe to show) a 4xx with its message', () => {
    const response = toErrorResponse(httpError(400, 'Failed to decode param', true), '1mb');
    expect(response.status).toBe(400);
    expect(response.errors).toEqual([
      expect.objectContaining({ status: 400, code: 'bad_request', detail: 'Failed to decode param' }),
    ]);
  });

  it('answers 500 without details to anything else, however it calls itself', () => {
    for (const error of [
      httpError(400, 'internal detail', false),
      httpError(503, 'upstream said no', true),
      new TypeError('x is undefined'),
      'a string',
    ]) {
      const response = toErrorResponse(error, '1mb');
      expect(response.status).toBe(500);
      expect(response.errors[0]).toMatchObject({ code: 'internal_error' });
      expect(JSON.stringify(response.errors)).not.toMatch(/internal detail|upstream|undefined/);
    }
  });

  it('answers storage_unavailable with 503 and Retry-After, naming no driver detail', () => {
    const cause = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const response = toErrorResponse(
      new DomainError('storage_unavailable', 'The database cannot serve this request right now; retry later', {
        cause,
      }),
      '1mb',
    );
    expect(response.status).toBe(503);
    expect(response.headers).toEqual({ 'Retry-After': '5' });
    expect(response.errors).toEqual([
      {
        status: 503,
        code: 'storage_unavailable',
        title: 'Service unavailable',
        detail: 'The database cannot serve this request right now; retry later',
      },
    ]);
  });

  it('answers a throttled log-in with 429 and the Retry-After it carries, and a failed one with 401', () => {
    const throttled = toErrorResponse(
      new DomainError('too_many_login_attempts', 'Too many failed log-ins; try again in 540 seconds', {
        data: { retry_after_seconds: 540 },
      }),
      '1mb',
    );
    const failed = toErrorResponse(new DomainError('invalid_credentials', 'Invalid email or password'), '1mb');

    expect(throttled.status).toBe(429);
    expect(throttled.headers).toEqual({ 'Retry-After': '540' });
    expect(throttled.errors).toEqual([
      expect.objectContaining({ status: 429, code: 'too_many_login_attempts', meta: { retry_after_seconds: 540 } }),
    ]);
    expect(failed.status).toBe(401);
    expect(failed.errors).toEqual([
      expect.objectContaining({ code: 'invalid_credentials', detail: 'Invalid email or password' }),
    ]);
  });
});
