import { randomUUID } from 'node:crypto';
import { BulkRunnerDeps, Clock, SharingUnitOfWork, runNextBulkOperation } from '@brand/core';
import { Storage } from '@brand/persistence-kysely';
import { Logger } from 'pino';
import { requestTransactions } from '../http/shared-transactions';
import { installValidationFastPath } from '../http/validation-fast-path';
import { startBackgroundLoop } from '../infrastructure/background-loop';
import { ImageServices } from '../infrastructure/image-services';
import { bulkItemAppliers } from './bulk-item-appliers';

export interface BulkRunnerOptions {
  storage: Storage;
  clock: Clock;
  images: ImageServices;
  logger: Logger;
  /** How long a claim on an operation holds unless a chunk renews it (`BULK_LEASE_MS`). */
  leaseMs: number;
  /** Pause between looks for work when there was none. */
  idleMs?: number;
}

/** What `runNextBulkOperation` runs on in this app: the storage, and the syncs joining each chunk's transaction. */
export function bulkRunnerDeps(
  options: Pick<BulkRunnerOptions, 'storage' | 'clock' | 'images'> & Partial<Pick<BulkRunnerOptions, 'logger'>>,
): BulkRunnerDeps {
  const uow = new SharingUnitOfWork(options.storage.uow, requestTransactions);
  const { logger } = options;
  return {
    uow: options.storage.uow,
    transactions: requestTransactions,
    clock: options.clock,
    appliers: bulkItemAppliers({ uow, clock: options.clock, images: options.images }),
    ...(logger && {
      chunkFailed: ({ error, operation, firstLine, attempts }) =>
        logger.error(
          { err: error, bulkOperationId: operation.id, brandId: operation.brandId, firstLine, attempts },
          'a chunk of a bulk operation failed; it is tried again, and the operation fails after too many attempts',
        ),
    }),
  };
}

/**
 * Runs queued bulk operations in this process until stopped (DESIGN §16): every API process runs
 * one, and `brand worker` does too; claims are leases, so they share the operations and one that
 * dies leaves its operation to another after the lease. `stop()` lets the chunk under way commit,
 * then gives the operation back at once.
 */
export function startBulkRunner(options: BulkRunnerOptions): { stop(): Promise<void> } {
  installValidationFastPath();
  const owner = `bulk-${randomUUID()}`;
  const deps = bulkRunnerDeps(options);
  return startBackgroundLoop((stopping) => runNextBulkOperation(deps, { owner, leaseMs: options.leaseMs, stopping }), {
    idleMs: options.idleMs ?? 1000,
    onError: (error) =>
      options.logger.warn(
        { err: error },
        'a bulk operation pass failed; its operation is taken up again after its lease',
      ),
  });
}
