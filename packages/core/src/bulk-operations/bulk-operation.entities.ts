/** What a bulk operation runs: each line is one item of that sync (DESIGN §16). */
export const BULK_OPERATION_TYPES = ['products.sync', 'customers.sync', 'suppliers.sync'] as const;
/** One of `BULK_OPERATION_TYPES`. */
export type BulkOperationType = (typeof BULK_OPERATION_TYPES)[number];

/** Whether a string names a type of bulk operation. */
export function isBulkOperationType(value: string): value is BulkOperationType {
  return (BULK_OPERATION_TYPES as readonly string[]).includes(value);
}

/**
 * `receiving` is the upload still streaming in: never shown, never run, and discarded if the
 * upload fails. The others are what the API shows: `queued` → `running` → `succeeded` (every line
 * ran, some may have failed) | `failed` (the operation itself could not go on) | `cancelled`.
 */
export const BULK_OPERATION_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
/** Where an operation is in its life (see `BULK_OPERATION_STATUSES`). */
export type BulkOperationStatus = (typeof BULK_OPERATION_STATUSES)[number] | 'receiving';

/** The statuses an operation ends in; nothing moves it out of them. */
export const FINISHED_BULK_OPERATION_STATUSES: readonly BulkOperationStatus[] = ['succeeded', 'failed', 'cancelled'];

/** Items per chunk: each chunk is one transaction of the sync, with its results and progress. */
export const BULK_CHUNK_LINES = 100;

/**
 * How many times one chunk may fail unexpectedly (not a line refused: a bug, a constraint the
 * sync did not foresee) before the operation is `failed`, rather than retried forever. An outage
 * of the storage is not counted: the chunk is retried once the storage is back.
 */
export const BULK_CHUNK_MAX_ATTEMPTS = 3;

/**
 * Why an operation `failed`: the chunk that could not be applied. Lines before `firstLine` were
 * applied and have their results; that chunk and the lines after it were not run. The message
 * names no internals (they go to the log).
 */
export interface BulkOperationError {
  code: 'chunk_failed';
  message: string;
  firstLine: number;
  lastLine: number;
}

/** A file of sync items submitted at once and run in the background (DESIGN §16), with its progress. */
export interface BulkOperation {
  id: number;
  brandId: number;
  type: BulkOperationType;
  status: BulkOperationStatus;
  /** Who submitted it: the syncs that record a user (the product timeline) record this one. */
  userId: number | null;
  totalLines: number;
  processedLines: number;
  failedLines: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Set when the operation `failed`; null otherwise. */
  error: BulkOperationError | null;
}

/**
 * An operation as a runner claims it: with the last line of its last committed chunk (0 before
 * the first), after which the runner goes on. Chunks run the lines strictly in order, so every
 * line up to it has its result and none after it has one.
 */
export interface ClaimedBulkOperation extends BulkOperation {
  processedThroughLine: number;
}

/** One input line, as stored on upload (`text` is the line as sent, without its line break). */
export interface BulkOperationLine {
  /** The line's number in the file, from 1 (blank lines are skipped but counted). */
  line: number;
  text: string;
}

/**
 * What became of one line: applied (`id`: what the sync answered for the item, null for a delete
 * of something absent) or refused with the error objects the sync would have answered for it.
 */
export type BulkLineResult =
  | { line: number; status: 'ok'; id: number | null }
  | { line: number; status: 'failed'; errors: readonly Record<string, unknown>[] };

/** A claim on a running operation: who works on it, until when (renewed with every chunk). */
export interface BulkOperationLease {
  owner: string;
  until: string;
}
