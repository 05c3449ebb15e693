import {
  BULK_CHUNK_LINES,
  BULK_OPERATION_TYPES,
  BulkOperation,
  Principal,
  bulkOperationListDefinition,
  cancelBulkOperation,
  getBulkOperation,
  listBulkOperations,
  missingScopes,
  queueBulkOperation,
  readBulkOperationResults,
} from '@brand/core';
import { BULK_SCOPES_NOTE, bulkScopeOf } from '../bulk/bulk-scopes';
import { MAX_LINE_BYTES, NDJSON } from '../bulk/ndjson-lines';
import { receiveNdjsonUpload, receivedUploadOf } from '../bulk/ndjson-upload';
import { BulkOperationQueryDto } from '../dtos/bulk-operation.dto';
import { apiErrors } from '../http/api-errors';
import { pathId } from '../http/path-id';
import { Surface } from '../http/route';
import { listOf, wrapped } from '../http/wire-schema';
import { listRequest, listResponse } from '../listing/list-request';
import { BulkOperationSchema, presentBulkOperation } from '../presenters/bulk-operation.presenter';
import { RouterDeps } from './router-deps';

/** Results read per query while the report streams out. */
const RESULTS_PER_PAGE = 1000;

/** Refuses an operation the token may not read or change: the scopes of the resource it syncs. */
function requireScopeFor(principal: Principal, operation: BulkOperation, access: 'read' | 'write'): void {
  const missing = missingScopes(principal.scopes, [bulkScopeOf(operation.type, access)]);
  if (missing.length > 0) throw apiErrors.insufficientScope(missing);
}

/** Bulk operations (DESIGN §16): a whole file of sync items, run in the background, with progress and a per-line report. */
export function bulkOperationsV10Router(deps: RouterDeps & { bulkMaxBytes: number }): Surface<'current'> {
  return new Surface('v10-bulk-operations', 'current', ['/v10'])
    .route({
      method: 'post',
      path: '/v10/bulk-operations',
      summary: 'Submit a bulk operation',
      description:
        `The body is a file of Content-Type ${NDJSON}: one JSON item per line, each the item its sync takes (a product with ` +
        `its variants as in POST /products/sync; a customer as in POST /customers/sync; a supplier as in ` +
        `POST /production/suppliers/sync) and checked by the same rules. It is streamed to storage, up to BULK_MAX_BYTES ` +
        `(${deps.bulkMaxBytes} bytes here; 413 beyond, nothing kept), a line up to ${MAX_LINE_BYTES} bytes; blank lines are ` +
        `skipped. The operation is queued and run in the background in chunks of at most ${BULK_CHUNK_LINES} lines, each ` +
        `chunk one transaction of the sync with its events; a line that is not JSON or that the sync refuses fails alone. ` +
        `One operation per brand and type runs at a time; the others wait in order. Poll GET /v10/bulk-operations/{id}, ` +
        `read GET /v10/bulk-operations/{id}/results, or subscribe to bulk_operation.finished. With an Idempotency-Key, ` +
        `the key is bound to the SHA-256 of the file's bytes.`,
      tag: 'Bulk operations',
      scopes: [],
      scopesByRequest: BULK_SCOPES_NOTE,
      query: BulkOperationQueryDto,
      streamedBody: {
        mediaType: NDJSON,
        description: 'One JSON item of the sync named by `type` per line',
        receive: receiveNdjsonUpload({ uow: deps.uow, clock: deps.clock, maxBytes: deps.bulkMaxBytes }),
      },
      status: 202,
      response: {
        description: 'The operation, queued',
        schema: wrapped('bulk_operation', BulkOperationSchema),
        location: 'The operation: /v10/bulk-operations/{id}',
      },
      handler: async ({ res }) => {
        const upload = receivedUploadOf(res);
        const operation = await queueBulkOperation(deps, upload);
        res.location(`/v10/bulk-operations/${operation.id}`);
        return { bulk_operation: presentBulkOperation(operation) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/bulk-operations',
      summary: 'List bulk operations',
      description: 'The operations of the types the token may read, oldest first.',
      tag: 'Bulk operations',
      scopes: [],
      scopesByRequest: BULK_SCOPES_NOTE,
      list: bulkOperationListDefinition,
      status: 200,
      response: { description: 'A page of bulk operations', schema: listOf('bulk_operations', BulkOperationSchema) },
      handler: async ({ principal, req }) => {
        const types = BULK_OPERATION_TYPES.filter(
          (type) => missingScopes(principal.scopes, [bulkScopeOf(type, 'read')]).length === 0,
        );
        if (types.length === 0)
          throw apiErrors.insufficientScope(BULK_OPERATION_TYPES.map((t) => bulkScopeOf(t, 'read')));
        const result = await listBulkOperations(deps, {
          ...(await listRequest(req, principal.brandId, deps.cursors)),
          types,
        });
        return listResponse('bulk_operations', result, bulkOperationListDefinition, deps.cursors, presentBulkOperation);
      },
    })
    .route({
      method: 'get',
      path: '/v10/bulk-operations/:id',
      summary: 'Get a bulk operation',
      description: 'Its status and counts: poll it to follow an operation.',
      tag: 'Bulk operations',
      scopes: [],
      scopesByRequest: BULK_SCOPES_NOTE,
      status: 200,
      response: { description: 'The operation', schema: wrapped('bulk_operation', BulkOperationSchema) },
      handler: async ({ principal, params }) => {
        const operation = await getBulkOperation(deps, {
          brandId: principal.brandId,
          id: pathId(params['id'], 'bulk operation'),
        });
        requireScopeFor(principal, operation, 'read');
        return { bulk_operation: presentBulkOperation(operation) };
      },
    })
    .route({
      method: 'get',
      path: '/v10/bulk-operations/:id/results',
      summary: "Read a bulk operation's results",
      description:
        `${NDJSON}, one line per line of the file that has run so far, in order: {"line":n,"status":"ok","id":…} ` +
        `(the id the sync answered for the item; null for a delete of something absent) or ` +
        `{"line":n,"status":"failed","errors":[…]} with the error objects the sync endpoint would have answered for the ` +
        `item (pointers relative to the line's item). n is the line's number in the file, from 1.`,
      tag: 'Bulk operations',
      scopes: [],
      scopesByRequest: BULK_SCOPES_NOTE,
      status: 200,
      response: { description: 'The per-line report', binary: [NDJSON] },
      handler: async ({ principal, params, res }) => {
        const id = pathId(params['id'], 'bulk operation');
        const operation = await getBulkOperation(deps, { brandId: principal.brandId, id });
        requireScopeFor(principal, operation, 'read');
        const { pages } = await readBulkOperationResults(deps, {
          brandId: principal.brandId,
          id,
          pageSize: RESULTS_PER_PAGE,
        });
        res.status(200).setHeader('Content-Type', `${NDJSON}; charset=utf-8`);
        for await (const page of pages) {
          const text = page.map((result) => `${JSON.stringify(result)}\n`).join('');
          // Waits for the socket to take a page before reading the next, so a slow reader holds one page.
          if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve));
        }
        res.end();
      },
    })
    .route({
      method: 'post',
      path: '/v10/bulk-operations/:id/cancel',
      summary: 'Cancel a bulk operation',
      description:
        'No further chunk starts; a chunk already running finishes and is counted. Announces bulk_operation.finished. ' +
        'A finished operation (succeeded, failed, cancelled) answers 409.',
      tag: 'Bulk operations',
      scopes: [],
      scopesByRequest: BULK_SCOPES_NOTE,
      status: 200,
      response: { description: 'The operation, cancelled', schema: wrapped('bulk_operation', BulkOperationSchema) },
      handler: async ({ principal, params }) => {
        const id = pathId(params['id'], 'bulk operation');
        requireScopeFor(principal, await getBulkOperation(deps, { brandId: principal.brandId, id }), 'write');
        return {
          bulk_operation: presentBulkOperation(await cancelBulkOperation(deps, { brandId: principal.brandId, id })),
        };
      },
    });
}
