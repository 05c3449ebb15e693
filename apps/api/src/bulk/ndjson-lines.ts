import { createHash } from 'node:crypto';
import { BulkOperationLine, Repositories, UnitOfWork, appendBulkUploadLines } from '@brand/core';

/** The media type of an upload: one JSON item per line. */
export const NDJSON = 'application/x-ndjson';

/** A line is one item of a sync request, so it may be as large as a sync request's whole body. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** Lines stored per transaction while the upload streams in; bounds what is held in memory. */
const LINES_PER_BATCH = 500;
const BYTES_PER_BATCH = 4 * 1024 * 1024;

/** A file, or one of its lines, over its limit; the message says which and names the limit. */
export class UploadTooLarge extends Error {
  override readonly name = 'UploadTooLarge';
}

/** What `storeNdjsonLines` stored: the lines that were not blank, and the SHA-256 of every byte read. */
export interface StoredLines {
  totalLines: number;
  sha256: string;
}

/**
 * Stores the lines of an NDJSON stream as an upload's lines (DESIGN §16), batch by batch as they
 * arrive, so the file is never held whole: at most a batch and one line are in memory. Blank lines
 * are skipped, but their numbers count, so `line` is the line of the file. The HTTP upload reads
 * the request's socket, `brand import` a file; both end here. Throws `UploadTooLarge` as soon as
 * the stream passes `maxBytes` or a line passes `MAX_LINE_BYTES`; what was stored until then stays
 * for the caller to discard with the upload.
 */
export async function storeNdjsonLines(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations'>> },
  source: AsyncIterable<Buffer>,
  upload: { brandId: number; operationId: number },
  maxBytes: number,
): Promise<StoredLines> {
  const hash = createHash('sha256');
  let received = 0;
  let lineNumber = 0;
  let totalLines = 0;
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let batch: BulkOperationLine[] = [];
  let batchBytes = 0;

  const flush = async () => {
    if (batch.length === 0) return;
    const lines = batch;
    batch = [];
    batchBytes = 0;
    await appendBulkUploadLines(deps, { ...upload, lines });
  };
  const endLine = async (bytes: Buffer) => {
    lineNumber += 1;
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    batch.push({ line: lineNumber, text });
    batchBytes += bytes.length;
    totalLines += 1;
    if (batch.length >= LINES_PER_BATCH || batchBytes >= BYTES_PER_BATCH) await flush();
  };
  const lineTooLong = () =>
    new UploadTooLarge(`Line ${lineNumber + 1} is longer than the limit of ${MAX_LINE_BYTES} bytes for one line`);

  for await (const chunk of source) {
    received += chunk.length;
    if (received > maxBytes)
      throw new UploadTooLarge(`The file is larger than the limit of ${maxBytes} bytes (BULK_MAX_BYTES)`);
    hash.update(chunk);
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      const line = partial.length > 0 ? Buffer.concat([...partial, piece]) : piece;
      partial = [];
      partialBytes = 0;
      if (line.length > MAX_LINE_BYTES) throw lineTooLong();
      await endLine(line);
      start = newline + 1;
    }
    if (start < chunk.length) {
      partial.push(chunk.subarray(start));
      partialBytes += chunk.length - start;
      if (partialBytes > MAX_LINE_BYTES) throw lineTooLong();
    }
  }
  if (partialBytes > 0) await endLine(Buffer.concat(partial));
  await flush();
  return { totalLines, sha256: hash.digest('hex') };
}
