import { findBulkOperationForOperator } from '@brand/core';
import { presentBulkOperation } from '../../presenters/bulk-operation.presenter';
import { parseId } from '../cli-arguments';
import { CliCommand } from '../cli-command';

interface BulkStatusOptions {
  id: number;
  brand?: number;
}

/** `brand bulk-status <id> [--brand <id>]`: where a bulk operation is, as `GET /v10/bulk-operations/{id}` shows it. */
export const bulkStatusCommand: CliCommand<BulkStatusOptions> = {
  name: 'bulk-status',
  summary: 'Show the status and counts of a bulk operation',
  configure(command) {
    command
      .argument('<id>', 'id of the bulk operation', parseId)
      .option('--brand <id>', 'the brand it belongs to (found in any brand when left out)', parseId);
  },
  async run({ storage }, options) {
    const operation = await findBulkOperationForOperator(
      { uow: storage.uow },
      { id: options.id, ...(options.brand === undefined ? {} : { brandId: options.brand }) },
    );
    const shown = presentBulkOperation(operation);
    return {
      json: { brand_id: operation.brandId, bulk_operation: shown },
      text:
        `Bulk operation ${shown.id} (${shown.type}) of brand ${operation.brandId}: ${shown.status}, ` +
        `${shown.processed_lines} of ${shown.total_lines} lines done, ${shown.failed_lines} failed; ` +
        `created ${shown.created_at}, started ${shown.started_at ?? '–'}, finished ${shown.finished_at ?? '–'}.` +
        (operation.error
          ? `\nIt stopped at lines ${operation.error.firstLine}–${operation.error.lastLine}: ${operation.error.message}`
          : ''),
    };
  },
};
