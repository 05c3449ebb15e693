import { ErrorCode } from '@brand/core';
import { STORAGE_RETRY_AFTER_SECONDS } from './api-errors';

/**
 * The one map from core error codes to HTTP. It is a `Record` over every `ErrorCode`, so a new
 * code added to the core does not compile here until it is given a status and a title.
 */
export const DOMAIN_ERROR_HTTP: Readonly<
  Record<ErrorCode, { status: number; title: string; headers?: Readonly<Record<string, string>> }>
> = {
  validation_failed: { status: 422, title: 'Validation error' },
  invalid_list_query: { status: 422, title: 'Invalid list query' },
  not_found: { status: 404, title: 'Not found' },
  has_dependents: { status: 422, title: 'Still in use' },
  invalid_state_transition: { status: 422, title: 'Invalid state transition' },
  duplicate: { status: 422, title: 'Duplicate' },
  unauthenticated: { status: 401, title: 'Unauthorized' },
  invalid_credentials: { status: 401, title: 'Invalid credentials' },
  // Retry-After comes from the error's data (retry_after_seconds), see the error handler.
  too_many_login_attempts: { status: 429, title: 'Too many log-in attempts' },
  forbidden: { status: 403, title: 'Forbidden' },
  concurrency_conflict: { status: 409, title: 'Conflict' },
  already_finished: { status: 409, title: 'Already finished' },
  image_download_failed: { status: 422, title: 'Image download failed' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  // A second or two is what most writes take; the client comes back then and finds the answer.
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use', headers: { 'Retry-After': '1' } },
  storage_unavailable: {
    status: 503,
    title: 'Service unavailable',
    headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
  },
};
