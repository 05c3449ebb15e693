import { DomainError } from '@brand/core';

interface DriverError {
  code?: unknown;
}

function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as DriverError).code === 'string' ? ((error as DriverError).code as string) : '';
}

/**
 * Write conflicts that a fresh attempt of the same transaction resolves: a unique key taken by a
 * concurrent transaction, a serialization failure or deadlock (Postgres), a busy database (SQLite).
 */
export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return ['23505', '40001', '40P01', 'SQLITE_BUSY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'].includes(code);
}

/** Driver errors that mean "something still refers to this row". */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Translates driver errors the core knows about into core errors; others pass through unchanged. */
export function translateDriverError(error: unknown): unknown {
  if (isForeignKeyViolation(error)) return new DomainError('has_dependents', 'other data still refers to this record');
  return error;
}
