import { BulkLineResult, BulkOperation, BulkOperationLine } from '../bulk-operations/bulk-operation.entities';
import { bulkOperationListDefinition } from '../bulk-operations/bulk-operation.list-definitions';
import { BulkOperationRepositories } from '../bulk-operations/bulk-operation.ports';
import { listInMemory } from '../listing/in-memory-list';
import { InMemoryFactories } from './in-memory-factories';

type StoredOperation = BulkOperation & {
  leaseOwner: string | null;
  leaseUntil: string | null;
  chunkAttempts: number;
  processedThroughLine: number;
};

/** Bulk operations in memory, with the semantics of the SQL adapters (leases, hidden uploads). */
export interface BulkOperationsState {
  bulkOperations: StoredOperation[];
  bulkOperationLines: (BulkOperationLine & { brandId: number; operationId: number })[];
  bulkOperationResults: (BulkLineResult & { brandId: number; operationId: number })[];
}

export function emptyBulkOperationsState(): BulkOperationsState {
  return { bulkOperations: [], bulkOperationLines: [], bulkOperationResults: [] };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const shown = ({
  leaseOwner: _owner,
  leaseUntil: _until,
  chunkAttempts: _attempts,
  processedThroughLine: _through,
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
    const resultsOf = (brandId: number, id: number) =>
      s()
        .bulkOperationResults.filter((r) => r.brandId === brandId && r.operationId === id)
        .sort((a, b) => a.line - b.line);
    const heldBy = (brandId: number, id: number, owner: string) => {
      const operation = find(brandId, id);
      return operation?.status === 'running' && operation.leaseOwner === owner ? operation : undefined;
    };
    return {
      async insert(operation) {
        s().bulkOperations.push({
          ...clone(operation),
          leaseOwner: null,
          leaseUntil: null,
          chunkAttempts: 0,
          processedThroughLine: 0,
        });
      },
      async appendLines(brandId, operationId, lines) {
        for (const line of lines) s().bulkOperationLines.push({ ...line, brandId, operationId });
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
        const ofIt = (row: { brandId: number; operationId: number }) =>
          row.brandId === brandId && row.operationId === id;
        s().bulkOperationResults = s().bulkOperationResults.filter((r) => !ofIt(r));
        s().bulkOperationLines = s().bulkOperationLines.filter((l) => !ofIt(l));
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
        return { ...shown(next), processedThroughLine: next.processedThroughLine };
      },
      async pendingLines(brandId, operationId, afterLine, limit) {
        return linesOf(brandId, operationId)
          .filter((l) => l.line > afterLine)
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
        // As the SQL tables' key: a line has one result.
        const done = new Set(resultsOf(brandId, operationId).map((r) => r.line));
        if (results.some((r) => done.has(r.line))) throw new Error('a line of the chunk already has its result');
        for (const result of results) s().bulkOperationResults.push({ ...clone(result), brandId, operationId });
        if (results.length > 0) operation.processedThroughLine = results[results.length - 1]!.line;
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
          resultsOf(brandId, operationId)
            .filter((r) => r.line > afterLine)
            .slice(0, limit)
            .map(({ brandId: _brand, operationId: _operation, ...result }) => result),
        );
      },
      async deleteAbandonedUploadLines(before, limit) {
        const abandoned = new Set(
          s()
            .bulkOperations.filter((o) => isAbandoned(o, before))
            .map((o) => `${o.brandId}:${o.id}`),
        );
        const ofAbandoned = (row: { brandId: number; operationId: number }) =>
          abandoned.has(`${row.brandId}:${row.operationId}`);
        // Results first, as the SQL adapter (an upload has none).
        const doomedResults = new Set(s().bulkOperationResults.filter(ofAbandoned).slice(0, limit));
        s().bulkOperationResults = s().bulkOperationResults.filter((r) => !doomedResults.has(r));
        const doomed = new Set(
          s()
            .bulkOperationLines.filter(ofAbandoned)
            .slice(0, limit - doomedResults.size),
        );
        s().bulkOperationLines = s().bulkOperationLines.filter((l) => !doomed.has(l));
        return doomedResults.size + doomed.size;
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
