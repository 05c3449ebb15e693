import { DomainError } from '@brand/core';

/** Whether a path segment has the form of an id: digits, no more than a stored id can have. */
export function isPathId(raw: string | undefined): raw is string {
  return raw !== undefined && /^\d{1,15}$/.test(raw);
}

/** A path id: anything but a positive integer names no record, so it answers 404 like a missing one. */
export function pathId(raw: string | undefined, resource: string): number {
  if (!isPathId(raw)) throw DomainError.notFound(resource, raw ?? '');
  return Number(raw);
}

/**
 * A public id in a path (an order channel's, a return portal's). Generated ones are 24 URL-safe
 * characters; anything that could never have been generated (empty, overlong, a control character
 * such as NUL, which Postgres refuses in text) names no record, so it answers 404 like a missing one.
 */
export function pathPublicId(raw: string | undefined, resource: string): string {
  if (raw === undefined || !/^[\x21-\x7e]{1,128}$/.test(raw)) throw DomainError.notFound(resource, raw ?? '');
  return raw;
}
