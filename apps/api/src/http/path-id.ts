import { DomainError } from '@brand/core';

/** A path id: anything but a positive integer names no record, so it answers 404 like a missing one. */
export function pathId(raw: string | undefined, resource: string): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw DomainError.notFound(resource, raw ?? '');
  return Number(raw);
}
