import { createHash } from 'node:crypto';
import { Request, RequestHandler, Response } from 'express';
import {
  BulkOperationLine,
  Clock,
  DomainError,
  Repositories,
  UnitOfWork,
  appendBulkUploadLines,
  discardBulkUpload,
  missingScopes,
  startBulkUpload,
} from '@brand/core';
import { BulkOperationQueryDto } from '../dtos/bulk-operation.dto';
import { ApiError } from '../http/api-error';
import { apiErrors } from '../http/api-errors';
import { principalOf } from '../http/request-context';
import { validateQuery } from '../http/validate-dto';
import { bulkScopeOf } from './bulk-scopes';

/** The media type of an upload: one JSON item per line. */
export const NDJSON = 'application/x-ndjson';

/** A line is one item of a sync request, so it may be as large as a sync request's whole body. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** Lines stored per transaction while the upload streams in; bounds what is held in memory. */
const LINES_PER_BATCH = 500;
const BYTES_PER_BATCH = 4 * 1024 * 1024;

/** What the upload left for the route's handler: the stored operation and its count of lines. */
export interface ReceivedUpload {
  brandId: number;
  operationId: number;
  totalLines: number;
}

const UPLOAD_KEY = 'bulkUpload';

export function receivedUploadOf(res: Response): ReceivedUpload {
  const upload = res.locals[UPLOAD_KEY] as ReceivedUpload | undefined;
  if (!upload) throw new Error('the bulk upload was not received before the handler ran');
  return upload;
}

const tooLarge = (maxBytes: number) =>
  new ApiError(413, 'payload_too_large', `The file is larger than the limit of ${maxBytes} bytes (BULK_MAX_BYTES)`);

/**
 * Streams an NDJSON upload from the socket into storage (DESIGN §16): the query and the scope are
 * checked first, then the lines are stored in batches as they arrive, so the file is never held
 * whole; at most a batch and one line are in memory. Blank lines are skipped (their numbers
 * still count, so `line` is the line of the file). A file over `maxBytes` (or a line over
 * `MAX_LINE_BYTES`) is a 413, and what was stored of it is deleted; so is the upload of a request
 * that fails or is abandoned later (the operation is discarded when the answer closes unless the
 * handler queued it).
 *
 * The request's body, as the idempotency key's fingerprint sees it, is the SHA-256 of the bytes
 * received: a retry with the same key and the same file matches; another file does not.
 */
export function receiveNdjsonUpload(deps: {
  uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | 'ids'>>;
  clock: Clock;
  maxBytes: number;
}): RequestHandler {
  return async (req: Request, res: Response, next) => {
    try {
      await receive(deps, req, res);
      next();
    } catch (error) {
      next(error);
    }
  };
}

async function receive(
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | 'ids'>>; clock: Clock; maxBytes: number },
  req: Request,
  res: Response,
): Promise<void> {
  const principal = principalOf(res);
  if (!principal) throw new Error('a bulk upload was reached without authentication');
  const { type } = await validateQuery(BulkOperationQueryDto, req.query);
  const missing = missingScopes(principal.scopes, [bulkScopeOf(type, 'write')]);
  if (missing.length > 0) throw apiErrors.insufficientScope(missing);
  if (!req.is(NDJSON))
    throw new ApiError(
      415,
      'unsupported_media_type',
      `A bulk operation's file is sent with Content-Type: ${NDJSON}${req.get('Content-Type') ? `; got ${req.get('Content-Type')}` : ''}`,
      { source: { header: 'Content-Type' } },
    );
  const declared = Number(req.get('Content-Length') ?? NaN);
  if (declared > deps.maxBytes) {
    res.setHeader('Connection', 'close');
    throw tooLarge(deps.maxBytes);
  }

  const operation = await startBulkUpload(deps, { brandId: principal.brandId, userId: principal.userId, type });
  const upload: ReceivedUpload = { brandId: operation.brandId, operationId: operation.id, totalLines: 0 };
  const discard = () => discardBulkUpload(deps, { brandId: upload.brandId, operationId: upload.operationId });
  // Whatever happens from here on, an upload the handler did not queue goes when the answer ends.
  res.once('close', () => void discard().catch(() => undefined));

  const hash = createHash('sha256');
  let received = 0;
  let lineNumber = 0;
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let batch: BulkOperationLine[] = [];
  let batchBytes = 0;

  const flush = async () => {
    const lines = batch;
    batch = [];
    batchBytes = 0;
    await appendBulkUploadLines(deps, { brandId: upload.brandId, operationId: upload.operationId, lines });
  };
  const endLine = async (bytes: Buffer) => {
    lineNumber += 1;
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    batch.push({ line: lineNumber, text });
    batchBytes += bytes.length;
    upload.totalLines += 1;
    if (batch.length >= LINES_PER_BATCH || batchBytes >= BYTES_PER_BATCH) await flush();
  };
  const refuse = (error: ApiError): never => {
    res.setHeader('Connection', 'close');
    req.resume();
    throw error;
  };

  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > deps.maxBytes) refuse(tooLarge(deps.maxBytes));
    hash.update(chunk);
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      const line = partial.length > 0 ? Buffer.concat([...partial, piece]) : piece;
      partial = [];
      partialBytes = 0;
      if (line.length > MAX_LINE_BYTES) refuse(lineTooLong(lineNumber + 1));
      await endLine(line);
      start = newline + 1;
    }
    if (start < chunk.length) {
      partial.push(chunk.subarray(start));
      partialBytes += chunk.length - start;
      if (partialBytes > MAX_LINE_BYTES) refuse(lineTooLong(lineNumber + 1));
    }
  }
  if (partialBytes > 0) await endLine(Buffer.concat(partial));
  await flush();
  if (upload.totalLines === 0)
    throw DomainError.validation([{ pointer: '', detail: 'The file has no lines: send one JSON item per line' }]);

  res.locals[UPLOAD_KEY] = upload;
  // What the idempotency key's fingerprint covers: the bytes as received.
  req.body = { ndjson_sha256: hash.digest('hex') };
}

const lineTooLong = (line: number) =>
  new ApiError(
    413,
    'payload_too_large',
    `Line ${line} is longer than the limit of ${MAX_LINE_BYTES} bytes for one line`,
  );
