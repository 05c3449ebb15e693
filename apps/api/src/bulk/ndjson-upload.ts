import { Request, RequestHandler, Response } from 'express';
import {
  Clock,
  DomainError,
  Repositories,
  UnitOfWork,
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
import { NDJSON, StoredLines, UploadTooLarge, storeNdjsonLines } from './ndjson-lines';

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
 * checked first, then the lines are stored as they arrive (`storeNdjsonLines`). A file over
 * `maxBytes` (or a line over `MAX_LINE_BYTES`) is a 413, and what was stored of it is deleted; so is the upload of a request
 * that fails or is abandoned later (the operation is discarded when the answer closes unless the
 * handler queued it).
 *
 * The request's body, as the idempotency key's fingerprint sees it, is the SHA-256 of the bytes
 * received: a retry with the same key and the same file matches; another file does not.
 */
export function receiveNdjsonUpload(deps: {
  uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | 'ids' | 'brands'>>;
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
  deps: { uow: UnitOfWork<Pick<Repositories, 'bulkOperations' | 'ids' | 'brands'>>; clock: Clock; maxBytes: number },
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
  const target = { brandId: operation.brandId, operationId: operation.id };
  // Whatever happens from here on, an upload the handler did not queue goes when the answer ends.
  res.once('close', () => void discardBulkUpload(deps, target).catch(() => undefined));

  let stored: StoredLines;
  try {
    stored = await storeNdjsonLines(deps, req as AsyncIterable<Buffer>, target, deps.maxBytes);
  } catch (error) {
    if (!(error instanceof UploadTooLarge)) throw error;
    // The rest of the body is not read: the connection closes after the answer.
    res.setHeader('Connection', 'close');
    req.resume();
    throw new ApiError(413, 'payload_too_large', error.message);
  }
  if (stored.totalLines === 0)
    throw DomainError.validation([{ pointer: '', detail: 'The file has no lines: send one JSON item per line' }]);

  res.locals[UPLOAD_KEY] = { ...target, totalLines: stored.totalLines } satisfies ReceivedUpload;
  // What the idempotency key's fingerprint covers: the bytes as received.
  req.body = { ndjson_sha256: stored.sha256 };
}
