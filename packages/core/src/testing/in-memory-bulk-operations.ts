import { BulkLineResult, BulkOperation, BulkOperationLine } from '../bulk-operations/bulk-operation.entities';
import { bulkOperationListDefinition } from '../bulk-operations/bulk-operation.list-definitions';
import { BulkOperationRepositories } from '../bulk-operations/bulk-operation.ports';
import { listInMemory } from '../listing/in-memory-list';
import { InMemoryFactories } from './in-memory-factories';

type StoredOperation = BulkOperation & { leaseOwner: string | null; leaseUntil: string | null; chunkAttempts: number };

/** Bulk operations in memory, with the semantics of the SQL adapters (leases, hidden uploads). */
export interface BulkOperationsState {
  bulkOperations: StoredOperation[];
  bulkOperationLines: (BulkOperationLine & { brandId: number; operationId: number; result: BulkLineResult | null })[];
}

export function emptyBulkOperationsState(): BulkOperationsState {
  return { bulkOperations: [], bulkOperationLines: [] };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const shown = ({
  leaseOwner: _owner,
  leaseUntil: _until,
  chunkAttempts: _attempts,
  ...operation
}: StoredOperation): BulkOperation => clone(operation);

const isAbandoned = (o: StoredOperation, before: string) => o.status === 'receiving' && o.createdAt < before;

export const inMemoryBulkOperationFactories: InMemoryFactories<BulkOperationRepositories, BulkOperationsState> = {
  bulkOperations: (s) => {
    const find = (brandId: number, id: number) => s().bulkOperations.find((o) => o.brandId === brandId && o.id === id);
    const linesOf = (brandId: number, id: number) =>
      s()
        .bulkOperationLines.filter((l) => l.brandId === brandId && l.operationId === id)
        .sort((a, b) => a.line - b.line);
    const heldBy = (brandId: number, id: number, owner: string) => {
      const operation = find(brandId, id);
      return operation?.status === 'running' && operation.leaseOwner === owner ? operation : undefined;
    };
    return {
      async insert(operation) {
        s().bulkOperations.push({ ...clone(operation), leaseOwner: null, leaseUntil: null, chunkAttempts: 0 });
      },
      async appendLines(brandId, operationId, lines) {
        for (const line of lines) s().bulkOperationLines.push({ ...line, brandId, operationId, result: null });
      },
      async queue(brandId, id, totalLines) {
        const operation = find(brandId, id);
        if (operation?.status !== 'receiving') return false;
        Object.assign(operation, { status: 'queued', totalLines });
        return true;
      },
      async discardReceiving(brandId, id) {
        if (find(brandId, id)?.status !== 'receiving') return;
        s().bulkOperations = s().bulkOperations.filter((o) => !(o.brandId === brandId && o.id === id));
        s().bulkOperationLines = s().bulkOperationLines.filter((l) => !(l.brandId === brandId && l.operationId === id));
      },
      async findById(brandId, id) {
        const operation = find(brandId, id);
        return operation && operation.status !== 'receiving' ? shown(operation) : null;
      },
      async findByIdAnyBrand(id) {
        const operation = s().bulkOperations.find((o) => o.id === id);
        return operation && operation.status !== 'receiving' ? shown(operation) : null;
      },
      async list(brandId, query) {
        const { rows, total } = listInMemory(
          bulkOperationListDefinition,
          query,
          s()
            .bulkOperations.filter((o) => o.brandId === brandId && o.status !== 'receiving')
            .map(shown),
        );
        return { rows: clone(rows), total };
      },
      async markFinished(brandId, id, ending) {
        const stored = find(brandId, id);
        if (stored?.status !== 'queued' && stored?.status !== 'running') return false;
        Object.assign(stored, clone(ending));
        return true;
      },
      async claimNext(now, lease) {
        const all = [...s().bulkOperations].sort((a, b) => a.id - b.id);
        const lapsed = all.find((o) => o.status === 'running' && (o.leaseUntil === null || o.leaseUntil < now));
        const busy = new Set(all.filter((o) => o.status === 'running').map((o) => `${o.brandId}:${o.type}`));
        const next = lapsed ?? all.find((o) => o.status === 'queued' && !busy.has(`${o.brandId}:${o.type}`));
        if (!next) return null;
        Object.assign(next, {
          status: 'running',
          startedAt: next.startedAt ?? now,
          leaseOwner: lease.owner,
          leaseUntil: lease.until,
        });
        return shown(next);
      },
      async pendingLines(brandId, operationId, afterLine, limit) {
        return linesOf(brandId, operationId)
          .filter((l) => l.line > afterLine && l.result === null)
          .slice(0, limit)
          .map(({ line, text }) => ({ line, text }));
      },
      async hold(brandId, operationId, lease) {
        const operation = heldBy(brandId, operationId, lease.owner);
        if (!operation) return false;
        operation.leaseUntil = lease.until;
        return true;
      },
      async recordChunkFailure(brandId, operationId, lease) {
        const operation = heldBy(brandId, operationId, lease.owner);
        if (!operation) return null;
        operation.leaseUntil = lease.until;
        return ++operation.chunkAttempts;
      },
      async recordChunk(brandId, operationId, lease, results) {
        const operation = find(brandId, operationId);
        if (operation?.leaseOwner !== lease.owner) return false;
        const byLine = new Map(linesOf(brandId, operationId).map((l) => [l.line, l]));
        for (const result of results) {
          const line = byLine.get(result.line);
          if (line && line.result === null) line.result = clone(result);
        }
        operation.processedLines += results.length;
        operation.failedLines += results.filter((r) => r.status === 'failed').length;
        operation.leaseUntil = lease.until;
        operation.chunkAttempts = 0;
        return true;
      },
      async releaseLease(brandId, operationId, owner) {
        const operation = find(brandId, operationId);
        if (operation?.leaseOwner === owner) Object.assign(operation, { leaseOwner: null, leaseUntil: null });
      },
      async results(brandId, operationId, afterLine, limit) {
        return clone(
          linesOf(brandId, operationId)
            .filter((l) => l.line > afterLine && l.result !== null)
            .slice(0, limit)
            .map((l) => l.result!),
        );
      },
      async deleteAbandonedUploadLines(before, limit) {
        const abandoned = new Set(
          s()
            .bulkOperations.filter((o) => isAbandoned(o, before))
            .map((o) => `${o.brandId}:${o.id}`),
        );
        const doomed = new Set(
          s()
            .bulkOperationLines.filter((l) => abandoned.has(`${l.brandId}:${l.operationId}`))
            .slice(0, limit),
        );
        s().bulkOperationLines = s().bulkOperationLines.filter((l) => !doomed.has(l));
        return doomed.size;
      },
      async deleteAbandonedUploads(before, limit) {
        const doomed = new Set(
          s()
            .bulkOperations.filter((o) => isAbandoned(o, before))
            .slice(0, limit),
        );
        s().bulkOperations = s().bulkOperations.filter((o) => !doomed.has(o));
        return doomed.size;
      },
    };
  },
};
