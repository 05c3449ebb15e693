import {
  createAdHocReturn,
  exportThirdPartyReturns,
  getThirdPartyReturns,
  listThirdPartyReturns,
  markDocumentsExported,
  receiveThirdPartyReturn,
  thirdPartyReturnExportListDefinition,
  thirdPartyReturnListDefinition,
} from '@brand/core';
import { exportScopeInput, flag, toMarkItem } from '../dtos/export.dto';
import {
  CreateAdHocReturnDto,
  ReceiveReturnDto,
  ReturnExportQueryDto,
  ReturnsMarkAsExportedDto,
  toAdHocReturn,
  toReceiptLines,
} from '../dtos/return.dto';
import { Surface } from '../http/route';
import { listRequest, listResponse } from '../listing/list-request';
import { Type, boolean, exportPageOf, integer, listOf, markedOf, nullable, wrapped } from '../http/wire-schema';
import { ThirdPartyReturnSchema, presentThirdPartyReturn } from '../presenters/third-party-return.presenter';
import { RouterDeps } from './router-deps';

const TAG = '3PL returns';

/**
 * The warehouse's (3PL) returns interface under /3pl/returns: RMAs in their flat form, their
 * export, and the warehouse's reports (an RMA received, an ad hoc return). Mounted beside the 3PL
 * shipments surface, with its own prefix.
 */
export function thirdPartyReturnsRouter(deps: RouterDeps): Surface<'current'> {
  return new Surface('3pl-returns', 'current', ['/3pl/returns'])
    .route({
      method: 'get',
      path: '/3pl/returns',
      summary: 'List returns (3PL form)',
      description:
        'Returns of every status in the warehouse form, with total. Page with limit and 0-based page, or walk with cursor (then without total). ' +
        'Filters: customer_id, created_at, updated_at. The export (GET /3pl/returns/export) is recommended over this list.',
      tag: TAG,
      scopes: ['returns:read'],
      list: thirdPartyReturnListDefinition,
      status: 200,
      response: { description: 'A page of returns', schema: listOf('returns', ThirdPartyReturnSchema) },
      handler: async ({ principal, req }) => {
        const result = await listThirdPartyReturns(deps, await listRequest(req, principal.brandId, deps.cursors));
        return listResponse('returns', result, thirdPartyReturnListDefinition, deps.cursors, presentThirdPartyReturn);
      },
    })
    .route({
      method: 'get',
      path: '/3pl/returns/export',
      summary: 'Export returns (3PL form)',
      description:
        'Approved RMAs (expected at the warehouse) this system_id has not marked exported; include_drafts=1 adds open (not yet approved) ones, ' +
        'include_received=1 received and credited ones. Walk by cursor until has_more is false, import, then confirm with POST /3pl/returns/mark-as-exported; ' +
        'unmarked returns keep appearing. not_exported_since re-exports returns marked after it.',
      tag: TAG,
      scopes: ['returns:read'],
      list: thirdPartyReturnExportListDefinition,
      query: ReturnExportQueryDto,
      status: 200,
      response: {
        description: 'A page of returns to export',
        schema: exportPageOf('returns', ThirdPartyReturnSchema),
      },
      handler: async ({ principal, req, query }) => {
        const result = await exportThirdPartyReturns(deps, {
          list: await listRequest(req, principal.brandId, deps.cursors),
          ...exportScopeInput(query),
          includeDrafts: flag(query.include_drafts),
          includeReceived: flag(query.include_received),
        });
        return listResponse(
          'returns',
          result,
          thirdPartyReturnExportListDefinition,
          deps.cursors,
          presentThirdPartyReturn,
        );
      },
    })
    .route({
      method: 'post',
      path: '/3pl/returns/receive',
      summary: 'Report a return received',
      description:
        'The approved return with this rma (an rma several returns share is a 422) moves to received: lines name variants of the return by sku or ean with the pieces ' +
        'that arrived (0 allowed; variants left out received 0; at least one piece in all; never more than expected). Returned pieces the return restocks go back ' +
        'In stock at the default location, and a draft credit note refunds the received pieces net of the return’s fees. All lines or none are recorded.',
      tag: TAG,
      scopes: ['returns:write'],
      body: ReceiveReturnDto,
      status: 200,
      response: { description: 'The received return', schema: wrapped('return', ThirdPartyReturnSchema) },
      handler: async ({ principal, body }) => {
        const { ret } = await receiveThirdPartyReturn(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          rma: body.return.rma,
          lines: toReceiptLines(body.return),
        });
        const [view] = await getThirdPartyReturns(deps, { brandId: principal.brandId, returnIds: [ret.id] });
        return { return: presentThirdPartyReturn(view!) };
      },
    })
    .route({
      method: 'post',
      path: '/3pl/returns/create-ad-hoc-return',
      summary: 'Report an ad hoc return',
      description:
        "Pieces that came back from a shipment without an announced RMA. Behaviour per the brand's ad_hoc_return_mode (null: 422, set it with PATCH /v10/settings): " +
        'always_credit_note makes a received ad hoc return with a draft credit note; credit_note_if_no_rma first looks for an approved RMA of the order expecting every ' +
        'reported variant with at least these pieces and receives that one instead (matched_rma true); alert_if_no_rma does the same, else makes the return without ' +
        'a credit note and a dashboard alert (alert_id). Pieces go back in stock only for claim_type return with return_to_inventory true. All or nothing.',
      tag: TAG,
      scopes: ['returns:write'],
      body: CreateAdHocReturnDto,
      status: 201,
      response: {
        description: 'The return that was made or received',
        schema: Type.Object({
          return: ThirdPartyReturnSchema,
          matched_rma: boolean(
            'true: an approved RMA of the order expected these pieces and was received instead of making a new return',
          ),
          alert_id: nullable(
            integer('alert_if_no_rma mode without a matching RMA: the dashboard alert made (no credit note yet)'),
          ),
        }),
      },
      handler: async ({ principal, body }) => {
        const outcome = await createAdHocReturn(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          ...toAdHocReturn(body.return),
        });
        const [view] = await getThirdPartyReturns(deps, { brandId: principal.brandId, returnIds: [outcome.ret.id] });
        return {
          return: presentThirdPartyReturn(view!),
          matched_rma: outcome.matchedRma,
          alert_id: outcome.alert?.id ?? null,
        };
      },
    })
    .route({
      method: 'post',
      path: '/3pl/returns/mark-as-exported',
      summary: 'Confirm exported returns',
      description:
        "At most 10 returns. They no longer appear in this system's exports; other systems still see them. " +
        "An unknown id is a 422 naming its item, and then nothing is marked. The note shows in the return's timeline. Marking again is harmless.",
      tag: TAG,
      scopes: ['returns:write'],
      body: ReturnsMarkAsExportedDto,
      status: 200,
      response: { description: 'The marked returns', schema: markedOf('returns', ThirdPartyReturnSchema) },
      handler: async ({ principal, body }) => {
        await markDocumentsExported(deps, {
          brandId: principal.brandId,
          userId: principal.userId,
          documentType: 'return',
          arrayKey: 'returns',
          idKey: 'return_id',
          items: body.returns.map((item) => toMarkItem(item, item.return_id)),
        });
        const views = await getThirdPartyReturns(deps, {
          brandId: principal.brandId,
          returnIds: body.returns.map((item) => item.return_id),
        });
        return { returns: views.map(presentThirdPartyReturn) };
      },
    });
}
