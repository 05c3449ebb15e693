import { BULK_CHUNK_MAX_ATTEMPTS, BULK_OPERATION_STATUSES, BULK_OPERATION_TYPES, BulkOperation } from '@brand/core';
import { Static, Type } from '@sinclair/typebox';
import { component, dateTime, integer, nullable, oneOfValues } from '../http/wire-schema';

export const BulkOperationErrorSchema = component(
  'BulkOperationError',
  Type.Object(
    {
      code: Type.Literal('chunk_failed'),
      message: Type.String(),
      first_line: integer('The first line of the chunk that could not be applied'),
      last_line: integer('Its last line: the lines before first_line were applied, the others were not run'),
    },
    {
      description: `Why the operation failed: one chunk of lines could not be applied after ${BULK_CHUNK_MAX_ATTEMPTS} attempts (an unexpected error, not a refused line)`,
    },
  ),
);

export const BulkOperationSchema = component(
  'BulkOperation',
  Type.Object({
    id: integer(),
    type: oneOfValues(BULK_OPERATION_TYPES, { description: 'The sync each line is an item of' }),
    status: oneOfValues(BULK_OPERATION_STATUSES, {
      description:
        'queued → running → succeeded (every line ran; some may have failed) | failed (the operation itself could not go on) | cancelled',
    }),
    total_lines: integer('Lines of the file (blank lines left out)'),
    processed_lines: integer('Lines run so far, failed ones included'),
    failed_lines: integer('Lines run that failed: their errors are in the results'),
    created_at: dateTime(),
    started_at: nullable(dateTime()),
    finished_at: nullable(dateTime()),
    error: nullable(BulkOperationErrorSchema),
  }),
);
export type BulkOperationWire = Static<typeof BulkOperationSchema>;

export function presentBulkOperation(operation: BulkOperation): BulkOperationWire {
  // A `receiving` operation is never read back (the repositories hide it): what is shown is one of the five.
  return {
    id: operation.id,
    type: operation.type,
    status: operation.status as BulkOperationWire['status'],
    total_lines: operation.totalLines,
    processed_lines: operation.processedLines,
    failed_lines: operation.failedLines,
    created_at: operation.createdAt,
    started_at: operation.startedAt,
    finished_at: operation.finishedAt,
    error: operation.error && {
      code: operation.error.code,
      message: operation.error.message,
      first_line: operation.error.firstLine,
      last_line: operation.error.lastLine,
    },
  };
}
