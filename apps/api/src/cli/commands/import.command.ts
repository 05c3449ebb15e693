import pino from 'pino';
import { BULK_OPERATION_TYPES, BulkOperation, getBulkOperation, isBulkOperationType } from '@brand/core';
import { startBulkRunner } from '../../bulk/bulk-runner';
import { submitBulkFile } from '../../bulk/submit-bulk-file';
import { loadConfig } from '../../config';
import { imageServicesFrom } from '../../infrastructure/image-services';
import { presentBulkOperation } from '../../presenters/bulk-operation.presenter';
import { parseId } from '../cli-arguments';
import { CliCommand } from '../cli-command';
import { BulkProgressBar, BulkProgressWatch, formatDuration } from '../bulk-progress';

interface ImportOptions {
  type: string;
  file: string;
  brand: number;
  /** False with `--no-run`: leave the running to the API processes and workers. */
  run: boolean;
}

/** How often the operation's counters are read while it runs. */
const POLL_MS = 250;

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * `brand import <type> <file.jsonl> --brand <id> [--no-run]`: submits a JSON-lines file as a bulk
 * operation of the brand (DESIGN §16, the upload `POST /v10/bulk-operations` takes, streamed from
 * the file under the same limits) and follows it to its end, with a progress bar on a terminal
 * and the outcome as text or, with `--json`, one JSON object. The command runs a bulk runner
 * itself meanwhile, as `brand worker` does, so an import finishes without a server; its claims
 * are leases like every runner's, so API processes and workers share the work.
 */
export const importCommand: CliCommand<ImportOptions> = {
  name: 'import',
  summary: 'Submit a JSON-lines file as a bulk operation of a brand and follow it with a progress bar',
  configure(command) {
    command
      .argument('<type>', `what each line is: ${BULK_OPERATION_TYPES.join(', ')}`)
      .argument('<file>', 'the JSON-lines file: one sync item per line')
      .requiredOption('--brand <id>', 'id of the brand', parseId)
      .option('--no-run', 'only submit and follow: API processes or `brand worker` run it');
  },
  usageProblem(options) {
    return isBulkOperationType(options.type)
      ? null
      : `<type> must be one of ${BULK_OPERATION_TYPES.join(', ')}; got '${options.type}'`;
  },
  async run({ storage, clock, env, terminal }, options) {
    const config = loadConfig(env);
    const type = options.type as (typeof BULK_OPERATION_TYPES)[number];
    const submitted = await submitBulkFile(
      { uow: storage.uow, clock, maxBytes: config.bulk.maxBytes },
      { brandId: options.brand, type, file: options.file },
    );
    const runner = options.run
      ? startBulkRunner({
          storage,
          clock,
          images: imageServicesFrom(config.images),
          logger: pino({ level: 'warn' }, pino.destination(2)),
          leaseMs: config.bulk.leaseMs,
          idleMs: POLL_MS,
        })
      : null;
    const bar = terminal ? new BulkProgressBar(terminal) : null;
    const watch = new BulkProgressWatch();
    const began = Date.now();
    let operation: BulkOperation = submitted;
    try {
      for (;;) {
        operation = await getBulkOperation({ uow: storage.uow }, { brandId: submitted.brandId, id: submitted.id });
        bar?.show(watch.figures(operation, Date.now()));
        if (FINISHED.has(operation.status)) break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      bar?.stop();
      await runner?.stop();
    }
    const seconds = (Date.now() - began) / 1000;
    const rate = seconds > 0 ? operation.processedLines / seconds : null;
    return {
      json: {
        bulk_operation: presentBulkOperation(operation),
        seconds: Math.round(seconds * 1000) / 1000,
        lines_per_second: rate === null ? null : Math.round(rate),
      },
      text: [
        `Bulk operation ${operation.id} (${operation.type}) of brand ${operation.brandId} ${operation.status}: ` +
          `${operation.processedLines} of ${operation.totalLines} lines done, ${operation.failedLines} failed, ` +
          `in ${formatDuration(seconds)}${rate === null ? '' : ` (${Math.round(rate)} lines/s)`}.`,
        ...(operation.error
          ? [`It stopped at lines ${operation.error.firstLine}–${operation.error.lastLine}: ${operation.error.message}`]
          : []),
        `The report of every line: GET /v10/bulk-operations/${operation.id}/results; again: pnpm brand bulk-status ${operation.id}`,
      ].join('\n'),
    };
  },
};
