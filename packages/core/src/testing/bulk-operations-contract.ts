import { BulkLineResult, BulkOperation, BulkOperationLease } from '../bulk-operations/bulk-operation.entities';
import { contractBuilders } from './contract-builders';
import { ContractStorage, useContractStorage } from './contract-support';

const T0 = '2026-05-01T00:00:00.000Z';
const at = (minute: number): string => new Date(Date.parse(T0) + minute * 60_000).toISOString();

/**
 * The repository contract of bulk operations (DESIGN §16), run against every storage adapter.
 * What every adapter promises:
 * - An upload under way (`receiving`) is neither found, listed nor claimed; `queue` shows it.
 * - `findByIdAnyBrand` finds an operation by id alone (the operator's CLI), in its brand.
 * - A claim takes a queued operation (one running per brand and type) or a running one whose
 *   lease lapsed; a chunk is written only under the lease (`hold`, `recordChunk`), and its
 *   results read back in line order with the counters added up.
 * - A claim tells the last line of the last committed chunk, where a runner goes on; `pendingLines`
 *   reads the lines after the given one.
 * - Failed attempts are counted under the lease and cleared by the next committed chunk.
 * - `markFinished` ends only an operation not ended, with its error.
 * - Abandoned uploads are deleted with their lines; newer uploads and queued operations stay.
 * - A line has one result: a chunk recording a line again is refused.
 *
 * @example
 * describeBulkOperationsContract('in-memory bulk operations', async () => ({ uow: new InMemoryUnitOfWork(), close: async () => {} }));
 */
export function describeBulkOperationsContract(name: string, open: () => Promise<ContractStorage>): void {
  describe(name, () => {
    const uow = useContractStorage(open);
    const { aBrand, aBulkOperation } = contractBuilders(uow, { at: T0, brandLabel: 'Bulk brand' });
    const lease = (owner: string, minute: number): BulkOperationLease => ({ owner, until: at(minute) });

    /**
     * Claims until this brand's operation comes (claims go across brands, and the storage is
     * shared with the suite's other tests): the operation claimed, or null when none of its came.
     */
    async function claimOwn(brandId: number, now: string, held: BulkOperationLease): Promise<BulkOperation | null> {
      for (;;) {
        const claimed = await uow().run((tx) => tx.bulkOperations.claimNext(now, held));
        if (!claimed || claimed.brandId === brandId) return claimed;
      }
    }

    /** An upload of `lines` lines (1..n) started at `createdAt`, queued unless `receiving`. */
    const anOperation = (
      brandId: number,
      lines: number,
      options: { createdAt?: string; receiving?: boolean } = {},
    ): Promise<number> => aBulkOperation(brandId, { lines, ...options });

    it('finds an operation by id alone in whichever brand has it, never an upload under way', async () => {
      const [first, second] = [(await aBrand()).id, (await aBrand()).id];
      const own = await anOperation(second, 1);
      const receiving = await anOperation(first, 1, { receiving: true });
      expect(await uow().read((r) => r.bulkOperations.findByIdAnyBrand(own))).toMatchObject({
        id: own,
        brandId: second,
      });
      expect(await uow().read((r) => r.bulkOperations.findByIdAnyBrand(receiving))).toBeNull();
      expect(await uow().read((r) => r.bulkOperations.findById(first, own))).toBeNull();
    });

    it('hides an upload under way until it is queued', async () => {
      const brandId = (await aBrand()).id;
      const id = await anOperation(brandId, 2, { receiving: true });
      expect(await uow().read((r) => r.bulkOperations.findById(brandId, id))).toBeNull();
      expect(await claimOwn(brandId, at(1), lease('a', 5))).toBeNull();
      expect(await uow().run((tx) => tx.bulkOperations.queue(brandId, id, 2))).toBe(true);
      expect(await uow().read((r) => r.bulkOperations.findById(brandId, id))).toMatchObject({
        status: 'queued',
        totalLines: 2,
        error: null,
      });
    });

    it('writes a chunk only under the lease, and goes on after the last line given', async () => {
      const brandId = (await aBrand()).id;
      const id = await anOperation(brandId, 5);
      const claimed = await claimOwn(brandId, at(1), lease('a', 5));
      expect(claimed).toMatchObject({ id, status: 'running', startedAt: at(1), processedThroughLine: 0 });

      const results: BulkLineResult[] = [
        { line: 1, status: 'ok', id: 41 },
        { line: 2, status: 'failed', errors: [{ code: 'validation_failed', source: { pointer: '/name' } }] },
      ];
      const written = await uow().run(async (tx) => {
        const held = await tx.bulkOperations.hold(brandId, id, lease('a', 6));
        return held && (await tx.bulkOperations.recordChunk(brandId, id, lease('a', 6), results));
      });
      expect(written).toBe(true);
      expect(await uow().run((tx) => tx.bulkOperations.hold(brandId, id, lease('b', 6)))).toBe(false);
      expect(await uow().run((tx) => tx.bulkOperations.recordChunk(brandId, id, lease('b', 6), []))).toBe(false);

      expect(await uow().read((r) => r.bulkOperations.results(brandId, id, 0, 10))).toEqual(results);
      expect(await uow().read((r) => r.bulkOperations.findById(brandId, id))).toMatchObject({
        processedLines: 2,
        failedLines: 1,
      });
      const pending = (afterLine: number) =>
        uow().read((r) => r.bulkOperations.pendingLines(brandId, id, afterLine, 2));
      expect((await pending(0)).map((l) => l.line)).toEqual([1, 2]);
      expect((await pending(2)).map((l) => l.line)).toEqual([3, 4]);
      expect(await pending(3)).toEqual([
        { line: 4, text: '{"n":4}' },
        { line: 5, text: '{"n":5}' },
      ]);
    });

    it('lets another runner take over only once the lease lapsed, after the last committed chunk', async () => {
      const brandId = (await aBrand()).id;
      const id = await anOperation(brandId, 6);
      await claimOwn(brandId, at(1), lease('a', 5));
      const chunk = (owner: string, lines: number[]) =>
        uow().run((tx) =>
          tx.bulkOperations.recordChunk(
            brandId,
            id,
            lease(owner, 5),
            lines.map((line) => ({ line, status: 'ok' as const, id: line })),
          ),
        );
      expect(await chunk('a', [1, 2])).toBe(true);
      expect(await chunk('a', [3, 4])).toBe(true);
      expect(await claimOwn(brandId, at(4), lease('b', 9))).toBeNull();
      expect(await claimOwn(brandId, at(6), lease('b', 9))).toMatchObject({ id, processedThroughLine: 4 });
      expect(await uow().run((tx) => tx.bulkOperations.hold(brandId, id, lease('a', 10)))).toBe(false);
      expect(await uow().run((tx) => tx.bulkOperations.hold(brandId, id, lease('b', 10)))).toBe(true);
      // A chunk without lines (nothing left) moves nothing.
      expect(await chunk('b', [])).toBe(true);
      expect(await claimOwn(brandId, at(20), lease('c', 25))).toMatchObject({ id, processedThroughLine: 4 });
    });

    it('keeps one result per line', async () => {
      const brandId = (await aBrand()).id;
      const id = await anOperation(brandId, 2);
      await claimOwn(brandId, at(1), lease('a', 5));
      const chunk = () =>
        uow().run((tx) =>
          tx.bulkOperations.recordChunk(brandId, id, lease('a', 5), [{ line: 1, status: 'ok', id: 1 }]),
        );
      await chunk();
      await expect(chunk()).rejects.toThrow();
      expect(await uow().read((r) => r.bulkOperations.results(brandId, id, 0, 10))).toEqual([
        { line: 1, status: 'ok', id: 1 },
      ]);
      expect(await uow().read((r) => r.bulkOperations.findById(brandId, id))).toMatchObject({ processedLines: 1 });
    });

    it('counts failed attempts under the lease and clears them with the next chunk', async () => {
      const brandId = (await aBrand()).id;
      const id = await anOperation(brandId, 2);
      await claimOwn(brandId, at(1), lease('a', 5));
      const fail = (owner: string) =>
        uow().run((tx) => tx.bulkOperations.recordChunkFailure(brandId, id, lease(owner, 5)));
      expect(await fail('a')).toBe(1);
      expect(await fail('a')).toBe(2);
      expect(await fail('b')).toBeNull();
      await uow().run((tx) =>
        tx.bulkOperations.recordChunk(brandId, id, lease('a', 5), [{ line: 1, status: 'ok', id: 1 }]),
      );
      expect(await fail('a')).toBe(1);
    });

    it('ends an operation once, with its error, and no longer holds it afterwards', async () => {
      const brandId = (await aBrand()).id;
      const id = await anOperation(brandId, 3);
      await claimOwn(brandId, at(1), lease('a', 5));
      const error = {
        code: 'chunk_failed' as const,
        message: 'lines 1 to 3 could not be applied',
        firstLine: 1,
        lastLine: 3,
      };
      const end = () =>
        uow().run((tx) => tx.bulkOperations.markFinished(brandId, id, { status: 'failed', finishedAt: at(2), error }));
      expect(await end()).toBe(true);
      expect(await end()).toBe(false);
      expect(await uow().read((r) => r.bulkOperations.findById(brandId, id))).toMatchObject({
        status: 'failed',
        finishedAt: at(2),
        error,
      });
      expect(await uow().run((tx) => tx.bulkOperations.hold(brandId, id, lease('a', 6)))).toBe(false);
      const receiving = await anOperation(brandId, 1, { receiving: true });
      expect(
        await uow().run((tx) =>
          tx.bulkOperations.markFinished(brandId, receiving, { status: 'cancelled', finishedAt: at(2), error: null }),
        ),
      ).toBe(false);
    });

    it('deletes abandoned uploads with their lines, and nothing else', async () => {
      const brandId = (await aBrand()).id;
      // Before every other test's uploads, so that the counts are this test's alone.
      const abandoned = await anOperation(brandId, 3, { receiving: true, createdAt: at(-60) });
      const streaming = await anOperation(brandId, 2, { receiving: true, createdAt: at(-20) });
      const queued = await anOperation(brandId, 2, { createdAt: at(-60) });
      const cutoff = at(-30);
      expect(await uow().run((tx) => tx.bulkOperations.deleteAbandonedUploadLines(cutoff, 2))).toBe(2);
      expect(await uow().run((tx) => tx.bulkOperations.deleteAbandonedUploadLines(cutoff, 10))).toBe(1);
      expect(await uow().run((tx) => tx.bulkOperations.deleteAbandonedUploads(cutoff, 10))).toBe(1);
      expect(await uow().read((r) => r.bulkOperations.pendingLines(brandId, abandoned, 0, 10))).toEqual([]);
      expect(await uow().run((tx) => tx.bulkOperations.queue(brandId, abandoned, 3))).toBe(false);
      expect(await uow().run((tx) => tx.bulkOperations.queue(brandId, streaming, 2))).toBe(true);
      expect(await uow().read((r) => r.bulkOperations.pendingLines(brandId, streaming, 0, 10))).toHaveLength(2);
      expect(await uow().read((r) => r.bulkOperations.findById(brandId, queued))).toMatchObject({ status: 'queued' });
    });
  });
}
